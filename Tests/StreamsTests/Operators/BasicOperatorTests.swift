import XCTest
import Streams

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

final class IgnoreDataTests: XCTestCase {
    // -1-2-|  ignoreData  -----|
    func testIgnoreDataKeepsOnlyTheTerminalEvent() {
        let recorder = EventRecorder<Int>()
        DataStream.just(data: [1, 2]).ignoreData().watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.end])
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

    func testDisposingARecoveredStreamDisposesTheFallback() {
        let fallback = Streamer<Int>()
        let subscription = DataStream<Int>.just(error: TestError.boom).recover { _ in fallback }.watch { _ in }
        XCTAssertEqual(fallback.watcherCount, 1)
        subscription.dispose()
        XCTAssertEqual(fallback.watcherCount, 0)
    }

    func testAThrowingRecoverDeliversTheNewError() {
        let recorder = EventRecorder<Int>()
        DataStream<Int>.just(error: TestError.boom)
            .recover { _ -> DataStream<Int> in throw TestError.other }
            .watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.error(TestError.other)])
    }
}
