// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
import Streams
import StreamsTesting

final class MapTests: XCTestCase {
    // -1-2-3-|  map(*10)  -10-20-30-|
    func testMapTransformsEveryValue() {
        let recorder = EventRecorder<Int>()
        DataStream.just(data: [1, 2, 3]).map { $0 * 10 }.watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.data(10), .data(20), .data(30), .end])
    }

    // -1-2-3-|  map(throws at 2)  -1-#
    func testAThrowingMapDeliversAnErrorAndStopsTheSource() {
        let recorder = EventRecorder<Int>()
        let emitted = Counter()
        DataStream.from(1...).call(data: { _ in emitted.increment() })
            .map { value -> Int in
                if value == 2 { throw TestError.boom }
                return value
            }
            .watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.data(1), .error(TestError.boom)])
        XCTAssertEqual(emitted.value, 2)
    }

    // -#  map  -#
    func testMapPassesErrorsOn() {
        let recorder = EventRecorder<Int>()
        DataStream<Int>.just(error: TestError.boom).map { $0 + 1 }.watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.error(TestError.boom)])
    }
}

final class CompactMapTests: XCTestCase {
    // -"1"-"x"-"3"-|  compactMap(Int.init)  -1---3-|
    func testCompactMapDropsNilResults() {
        let recorder = EventRecorder<Int>()
        DataStream.just(data: ["1", "x", "3"]).compactMap { Int($0) }.watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.data(1), .data(3), .end])
    }
}

final class ScanTests: XCTestCase {
    // -1-2-3-|  scan(0,+)  -1-3-6-|
    func testScanEmitsEveryRunningTotal() {
        let recorder = EventRecorder<Int>()
        DataStream.just(data: [1, 2, 3]).scan(0, +).watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.data(1), .data(3), .data(6), .end])
    }

    func testEachWatcherOfAScanStartsFromTheInitialValue() {
        let stream = DataStream.just(data: [1, 2]).scan(10, +)
        let first = EventRecorder<Int>(), second = EventRecorder<Int>()
        stream.watch(using: first.watcher)
        stream.watch(using: second.watcher)
        XCTAssertEqual(second.values, [11, 13])
        XCTAssertEqual(first.values, second.values)
    }
}
