// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
import Streams
import StreamsTesting

final class ReduceTests: XCTestCase {
    // -1-2-3-|  reduce(0,+)  -------6|
    func testReduceEmitsTheFoldedValueAtTheEnd() {
        let recorder = EventRecorder<Int>()
        DataStream.just(data: [1, 2, 3]).reduce(0, +).watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.data(6), .end])
    }

    // -|  reduce(7,+)  -7|
    func testReduceOfAnEmptyStreamEmitsTheInitialValue() {
        let recorder = EventRecorder<Int>()
        DataStream<Int>.empty().reduce(7, +).watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.data(7), .end])
    }

    func testAThrowingReduceDeliversAnErrorAndNoValue() {
        let recorder = EventRecorder<Int>()
        DataStream.just(data: [1, 2]).reduce(0) { _, _ in throw TestError.boom }.watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.error(TestError.boom)])
    }
}

final class ToArrayTests: XCTestCase {
    // -1-2-3-|  toArray  -------[1,2,3]|
    func testToArrayCollectsAllValues() {
        let recorder = EventRecorder<[Int]>()
        DataStream.just(data: [1, 2, 3]).toArray().watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.data([1, 2, 3]), .end])
    }

    // -1-#  toArray  -#
    func testToArrayOfAFailingStreamFails() {
        let recorder = EventRecorder<[Int]>()
        DataStream.concat(DataStream.just(1), DataStream<Int>.just(error: TestError.boom)).toArray()
            .watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.error(TestError.boom)])
    }
}
