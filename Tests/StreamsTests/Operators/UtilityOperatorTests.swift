// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
import Streams
import StreamsTesting

final class StartWithTests: XCTestCase {
    // ---1-2-|  startWith(0)  0--1-2-|
    func testStartWithEmitsTheValueFirst() {
        let recorder = EventRecorder<Int>()
        DataStream.just(data: [1, 2]).startWith(0).watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.data(0), .data(1), .data(2), .end])
    }

    func testStartWithDataEmitsAllValuesFirst() {
        let recorder = EventRecorder<Int>()
        DataStream.just(3).startWith(data: [1, 2]).watch(using: recorder.watcher)
        XCTAssertEqual(recorder.values, [1, 2, 3])
    }

    func testStartWithAnEmptyArrayElement() {
        let recorder = EventRecorder<[Int]>()
        DataStream<[Int]>.never().startWith([]).watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.data([])])
    }
}

final class CallTests: XCTestCase {
    func testCallRunsSideEffectsAndPassesEventsUnchanged() {
        let seen = EventRecorder<Int>()
        let recorder = EventRecorder<Int>()
        let lifecycle = Counter()
        DataStream.just(data: [1, 2])
            .call(data: { seen.watcher.data($0) }, end: { seen.watcher.end() }, watched: { lifecycle.increment() }, disposed: { lifecycle.increment() })
            .watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.data(1), .data(2), .end])
        XCTAssertEqual(seen.events, [.data(1), .data(2), .end])
        XCTAssertEqual(lifecycle.value, 2)
    }
}

final class LogTests: XCTestCase {
    func testLogWritesEveryEventWithItsLabel() {
        let lines = EventRecorder<String>()
        DataStream.just(1).log("n", to: { lines.watcher.data($0) }).watch { _ in }
        XCTAssertEqual(lines.values, ["n: watched", "n: data(1)", "n: end", "n: disposed"])
    }
}

final class MaterializeTests: XCTestCase {
    // -1-#  materialize  -.data(1)-.error(#)|
    func testMaterializeTurnsEventsIntoValues() {
        let recorder = EventRecorder<Event<Int>>()
        DataStream.concat(DataStream.just(1), DataStream<Int>.just(error: TestError.boom)).materialize()
            .watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.data(.data(1)), .data(.error(TestError.boom)), .end])
    }

    // -.data(1)-.end|  dematerialize  -1-|
    func testDematerializeTurnsValuesBackIntoEvents() {
        let recorder = EventRecorder<Int>()
        DataStream.just(data: [1, 2]).materialize().dematerialize().watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.data(1), .data(2), .end])
    }
}
