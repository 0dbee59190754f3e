// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
import Streams
import StreamsTesting

final class RecoverTests: XCTestCase {
    // -1-#  recover(9)  -1-9|
    func testRecoverWithAValueReplacesTheError() {
        let recorder = EventRecorder<Int>()
        DataStream.concat(DataStream.just(1), DataStream<Int>.just(error: TestError.boom)).recover(9)
            .watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.data(1), .data(9), .end])
    }

    // -1-#  recover { -8-9-| }  -1-8-9-|
    func testRecoverWithAStreamContinuesWithIt() {
        let recorder = EventRecorder<Int>()
        DataStream.concat(DataStream.just(1), DataStream<Int>.just(error: TestError.boom))
            .recover { _ in DataStream.just(data: [8, 9]) }
            .watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.data(1), .data(8), .data(9), .end])
    }

    // The closure names its fallback by implicit member: `.just(9)`, not `DataStream.just(9)`.
    func testRecoverTakesAnImplicitMemberFallback() {
        let recorder = EventRecorder<Int>()
        DataStream.concat(DataStream.just(1), DataStream<Int>.just(error: TestError.boom))
            .recover { _ in .just(9) }
            .watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.data(1), .data(9), .end])
    }

    func testDisposingARecoveredStreamDisposesTheFallback() {
        let fallback = Streamer<Int>()
        let subscription = DataStream<Int>.just(error: TestError.boom).recover { _ in fallback }.watch { _ in }
        XCTAssertEqual(fallback.watcherCount, 1)
        subscription.dispose()
        XCTAssertEqual(fallback.watcherCount, 0)
    }

    func testDisposingBeforeAnErrorDisposesTheSource() {
        let source = Streamer<Int>()
        let subscription = source.recover(9).watch { _ in }
        XCTAssertEqual(source.watcherCount, 1)
        subscription.dispose()
        XCTAssertEqual(source.watcherCount, 0)
    }

    func testAThrowingRecoverDeliversTheNewError() {
        let recorder = EventRecorder<Int>()
        DataStream<Int>.just(error: TestError.boom)
            .recover { _ -> DataStream<Int> in throw TestError.other }
            .watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.error(TestError.other)])
    }
}
