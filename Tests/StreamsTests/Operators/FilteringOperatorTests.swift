// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
import Streams
import StreamsTesting

final class FilterTests: XCTestCase {
    // -1-2-3-4-|  filter(even)  ---2---4-|
    func testFilterKeepsOnlyAcceptedValues() {
        let recorder = EventRecorder<Int>()
        DataStream.just(data: [1, 2, 3, 4]).filter { $0 % 2 == 0 }.watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.data(2), .data(4), .end])
    }

    func testAThrowingFilterDeliversAnError() {
        let recorder = EventRecorder<Int>()
        DataStream.just(data: [1, 2]).filter { _ in throw TestError.boom }.watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.error(TestError.boom)])
    }
}

final class SkipTests: XCTestCase {
    // -1-2-3-4-|  skip(2)  -----3-4-|
    func testSkipDropsTheFirstValues() {
        let recorder = EventRecorder<Int>()
        DataStream.just(data: [1, 2, 3, 4]).skip(2).watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.data(3), .data(4), .end])
    }
}

final class TakeTests: XCTestCase {
    // -1-2-3-4-|  take(2)  -1-2|
    func testTakePassesTheFirstValuesThenEnds() {
        let recorder = EventRecorder<Int>()
        DataStream.just(data: [1, 2, 3, 4]).take(2).watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.data(1), .data(2), .end])
    }

    func testTakeStopsAnEndlessSynchronousSource() {
        let recorder = EventRecorder<Int>()
        DataStream.from(1...).take(3).watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.data(1), .data(2), .data(3), .end])
    }

    func testTakeDisposesAHotSourceWhenDone() {
        let streamer = Streamer<Int>()
        let recorder = EventRecorder<Int>()
        streamer.take(1).watch(using: recorder.watcher)
        streamer.data(1)
        streamer.data(2)
        XCTAssertEqual(recorder.events, [.data(1), .end])
        XCTAssertEqual(streamer.watcherCount, 0)
    }

    func testTakeZeroEndsAtOnceWithoutWatching() {
        let streamer = Streamer<Int>()
        let recorder = EventRecorder<Int>()
        streamer.take(0).watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.end])
        XCTAssertEqual(streamer.watcherCount, 0)
    }
}

final class TakeWhileTests: XCTestCase {
    // -1-2-5-1-|  takeWhile(<3)  -1-2-|
    func testTakeWhileEndsAtTheFirstFailingValue() {
        let recorder = EventRecorder<Int>()
        DataStream.just(data: [1, 2, 5, 1]).takeWhile { $0 < 3 }.watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.data(1), .data(2), .end])
    }
}

final class UniqueTransitionTests: XCTestCase {
    // -1-1-2-2-1-|  uniqueTransition  -1---2---1-|
    func testUniqueTransitionDropsConsecutiveDuplicates() {
        let recorder = EventRecorder<Int>()
        DataStream.just(data: [1, 1, 2, 2, 1]).uniqueTransition().watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.data(1), .data(2), .data(1), .end])
    }

    func testUniqueTransitionByKeyComparesKeysOnly() {
        let recorder = EventRecorder<String>()
        DataStream.just(data: ["a", "ab", "b"]).uniqueTransition { $0.first }.watch(using: recorder.watcher)
        XCTAssertEqual(recorder.values, ["a", "b"])
    }
}

final class DistinctTests: XCTestCase {
    // -1-2-1-3-2-|  distinct  -1-2---3---|
    func testDistinctDropsEveryRepeat() {
        let recorder = EventRecorder<Int>()
        DataStream.just(data: [1, 2, 1, 3, 2]).distinct().watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.data(1), .data(2), .data(3), .end])
    }
}

final class IgnoreDataTests: XCTestCase {
    // -1-2-|  ignoreData  -----|
    func testIgnoreDataKeepsOnlyTheTerminalEvent() {
        let recorder = EventRecorder<Int>()
        DataStream.just(data: [1, 2]).ignoreData().watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.end])
    }
}
