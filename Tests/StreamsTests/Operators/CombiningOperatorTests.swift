// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
import Streams
import StreamsTesting

final class MergeTests: XCTestCase {
    // a: -1---3-|  b: ---2---4-|  merge: -1-2-3-4-|
    func testMergeInterleavesValuesAsTheyCome() {
        let a = Streamer<Int>(), b = Streamer<Int>()
        let recorder = EventRecorder<Int>()
        DataStream.merge(a, b).watch(using: recorder.watcher)
        a.data(1); b.data(2); a.data(3); a.end(); b.data(4)
        XCTAssertEqual(recorder.events, [.data(1), .data(2), .data(3), .data(4)])
        b.end()
        XCTAssertEqual(recorder.events.last, .end)
    }

    func testMergeFailsAtTheFirstErrorAndDisposesTheOtherSources() {
        let a = Streamer<Int>(), b = Streamer<Int>()
        let recorder = EventRecorder<Int>()
        DataStream.merge([a, b]).watch(using: recorder.watcher)
        a.error(TestError.boom)
        XCTAssertEqual(recorder.events, [.error(TestError.boom)])
        XCTAssertEqual(b.watcherCount, 0)
    }

    func testMergeOfNoSourcesEndsAtOnce() {
        let recorder = EventRecorder<Int>()
        DataStream<Int>.merge([]).watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.end])
    }

    func testMergeAcceptsDifferentStreamTypes() {
        let recorder = EventRecorder<Int>()
        DataStream.merge(DataStream.just(1), ValueStreamer(2).take(1), DataStream.just(3)).watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.data(1), .data(2), .data(3), .end])
    }
}

final class ConcatTests: XCTestCase {
    // a: -1-2-|  b: -3-4-|  concat: -1-2-3-4-|
    func testConcatPlaysSourcesOneAfterAnother() {
        let recorder = EventRecorder<Int>()
        DataStream.concat(DataStream.just(data: [1, 2]), DataStream.just(data: [3, 4])).watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.data(1), .data(2), .data(3), .data(4), .end])
    }

    func testConcatWatchesTheNextSourceOnlyAfterThePreviousEnds() {
        let first = Streamer<Int>(), second = Streamer<Int>()
        let recorder = EventRecorder<Int>()
        DataStream.concat([first, second]).watch(using: recorder.watcher)
        XCTAssertEqual(second.watcherCount, 0)
        first.data(1)
        first.end()
        XCTAssertEqual(second.watcherCount, 1)
        second.data(2)
        XCTAssertEqual(recorder.values, [1, 2])
    }

    func testConcatStopsAtAnError() {
        let never = Counter()
        let recorder = EventRecorder<Int>()
        DataStream.concat(DataStream<Int>.just(error: TestError.boom), DataStream.deferred { never.increment(); return DataStream.just(1) })
            .watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.error(TestError.boom)])
        XCTAssertEqual(never.value, 0)
    }
}

final class ZipTests: XCTestCase {
    // a: -1-2-----3-|  b: ---x-y-z---|  zip: ---(1,x)-(2,y)-(3,z)|
    func testZipPairsValuesByPosition() {
        let a = Streamer<Int>(), b = Streamer<String>()
        let recorder = EventRecorder<String>()
        DataStream.zip(a, b).map { "\($0)\($1)" }.watch(using: recorder.watcher)
        a.data(1); a.data(2); b.data("x"); b.data("y"); b.data("z"); a.data(3)
        XCTAssertEqual(recorder.values, ["1x", "2y", "3z"])
    }

    func testZipEndsWhenAnEndedSourceHasNoValueLeftToPair() {
        let a = Streamer<Int>(), b = Streamer<Int>()
        let recorder = EventRecorder<Int>()
        DataStream.zip(a, b).map { $0 + $1 }.watch(using: recorder.watcher)
        a.data(1); a.data(2); a.end()
        b.data(10)
        XCTAssertEqual(recorder.events, [.data(11)])
        b.data(20)
        XCTAssertEqual(recorder.events, [.data(11), .data(22), .end])
        XCTAssertEqual(b.watcherCount, 0)
    }

    func testZipFailsOnceWhenEitherSourceFails() {
        let recorder = EventRecorder<Int>()
        DataStream.zip(DataStream<Int>.just(error: TestError.boom), DataStream<Int>.just(error: TestError.other))
            .map { $0 + $1 }.watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.error(TestError.boom)])
    }

    func testZipOfThreeMakesTriples() {
        let recorder = EventRecorder<String>()
        DataStream.zip(DataStream.just(data: [1, 2]), DataStream.just(data: ["a", "b"]), DataStream.just(data: [true, false]))
            .map { "\($0)\($1)\($2)" }.watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.data("1atrue"), .data("2bfalse"), .end])
    }

    func testZipOfAnArrayMakesArrays() {
        let recorder = EventRecorder<[Int]>()
        DataStream.zip([DataStream.just(data: [1, 2]), DataStream.just(data: [3, 4, 5])]).watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.data([1, 3]), .data([2, 4]), .end])
    }

    func testZipOfManySynchronousValuesKeepsOrder() {
        let recorder = EventRecorder<Int>()
        DataStream.zip(DataStream.from(0..<10_000), DataStream.from(0..<10_000))
            .filter { $0 != $1 }.map { $0.0 }.watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.end])
    }
}

final class CombineLatestTests: XCTestCase {
    // a: -1-----2---|  b: ---x-y-----|  combineLatest: ---(1,x)-(1,y)-(2,y)|
    func testCombineLatestEmitsTheLatestOfEachOnEveryChange() {
        let a = Streamer<Int>(), b = Streamer<String>()
        let recorder = EventRecorder<String>()
        DataStream.combineLatest(a, b).map { "\($0)\($1)" }.watch(using: recorder.watcher)
        a.data(1); b.data("x"); b.data("y"); a.data(2); a.end(); b.end()
        XCTAssertEqual(recorder.events, [.data("1x"), .data("1y"), .data("2y"), .end])
    }

    func testCombineLatestEndsAtOnceWhenASourceEndsWithoutAValue() {
        let a = Streamer<Int>()
        let recorder = EventRecorder<Int>()
        DataStream.combineLatest(a, DataStream<Int>.empty()).map { $0 + $1 }.watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.end])
        XCTAssertEqual(a.watcherCount, 0)
    }

    func testCombineLatestOfThree() {
        let recorder = EventRecorder<Int>()
        DataStream.combineLatest(DataStream.just(1), DataStream.just(2), DataStream.just(3)).map { $0 + $1 + $2 }
            .watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.data(6), .end])
    }

    func testCombineLatestOfAnArray() {
        let a = Streamer<Int>(), b = Streamer<Int>()
        let recorder = EventRecorder<[Int]>()
        DataStream.combineLatest([a, b]).watch(using: recorder.watcher)
        a.data(1); b.data(2); a.data(3)
        XCTAssertEqual(recorder.values, [[1, 2], [3, 2]])
    }
}

final class WithLatestFromTests: XCTestCase {
    // source: ---1-----2---3-|  other: -a---b-------|  result: ---(1,a)-(2,b)-(3,b)|
    func testWithLatestFromCombinesWithTheLatestOtherValue() {
        let source = Streamer<Int>(), other = Streamer<String>()
        let recorder = EventRecorder<String>()
        source.withLatestFrom(other) { "\($0)\($1)" }.watch(using: recorder.watcher)
        source.data(0)
        other.data("a"); source.data(1); other.data("b"); source.data(2); other.end(); source.data(3); source.end()
        XCTAssertEqual(recorder.events, [.data("1a"), .data("2b"), .data("3b"), .end])
    }

    func testWithLatestFromPairsWhenNoCombinerIsGiven() {
        let recorder = EventRecorder<String>()
        DataStream.just(1).withLatestFrom(ValueStreamer("a")).map { "\($0)\($1)" }.watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.data("1a"), .end])
    }

    func testWithLatestFromFailsWhenTheOtherFails() {
        let source = Streamer<Int>()
        let recorder = EventRecorder<(Int, Int)>()
        source.withLatestFrom(DataStream<Int>.just(error: TestError.boom)).watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events.count, 1)
        XCTAssertNotNil(recorder.events.first?.error)
        XCTAssertEqual(source.watcherCount, 0)
    }
}

final class TakeUntilTests: XCTestCase {
    // source: -1-2-3-4-|  notifier: -----x---|  takeUntil: -1-2-|
    func testTakeUntilEndsWhenTheNotifierEmits() {
        let source = Streamer<Int>(), notifier = Streamer<Void>()
        let recorder = EventRecorder<Int>()
        source.takeUntil(notifier).watch(using: recorder.watcher)
        source.data(1); source.data(2); notifier.data(()); source.data(3)
        XCTAssertEqual(recorder.events, [.data(1), .data(2), .end])
        XCTAssertEqual(source.watcherCount, 0)
        XCTAssertEqual(notifier.watcherCount, 0)
    }

    func testTakeUntilIgnoresTheNotifierEndingWithoutAValue() {
        let source = Streamer<Int>(), notifier = Streamer<Void>()
        let recorder = EventRecorder<Int>()
        source.takeUntil(notifier).watch(using: recorder.watcher)
        notifier.end(); source.data(1)
        XCTAssertEqual(recorder.events, [.data(1)])
    }

    func testTakeUntilANotifierThatAlreadyEmittedNeverWatchesTheSource() {
        let source = Streamer<Int>()
        let recorder = EventRecorder<Int>()
        source.takeUntil(DataStream.just(())).watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.end])
        XCTAssertEqual(source.watcherCount, 0)
    }
}
