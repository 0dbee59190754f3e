// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Synchronization
import XCTest
import Streams
import StreamsTesting

/// Synchronous fusion: operators on `from`/`just`/`empty` compose closures instead of
/// subscriptions. Every fused pipeline must deliver exactly what the same pipeline over
/// an unfusable source (`DataStream { watcher in … }`) delivers.
final class FusionTests: XCTestCase {
    private func assertSame<E: Sendable & Equatable>(
        _ pipeline: (DataStream<Int>) -> DataStream<E>, input: [Int] = Array(0..<20),
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let baseline = StreamDiagnostics.liveSubscriptions
        let fused = events(pipeline(DataStream.from(input)))
        let plain = events(pipeline(unfused(input)))
        XCTAssertEqual(fused, plain, file: file, line: line)
        XCTAssertTrue(fused.last?.isTerminal ?? false, "ends with a terminal event", file: file, line: line)
        XCTAssertEqual(StreamDiagnostics.liveSubscriptions, baseline, file: file, line: line)
    }

    func testEachFusedOperatorDeliversWhatTheUnfusedOneDoes() {
        assertSame { $0.map { $0 * 2 } }
        assertSame { $0.filter { $0 % 3 == 0 } }
        assertSame { $0.compactMap { $0 % 2 == 0 ? String($0) : nil } }
        assertSame { $0.scan(0, +) }
        assertSame { $0.reduce(0, +) }
        assertSame { $0.toArray() }
        assertSame { $0.skip(5) }
        assertSame { $0.skip(50) }
        assertSame { $0.take(3) }
        assertSame { $0.take(50) }
        assertSame { $0.take(0) }
        assertSame { $0.map { $0 * 2 }.filter { $0 % 3 == 0 }.reduce(0, +) }
        assertSame { $0.take(5).reduce(0, +).map { $0 + 1 } }
        assertSame { $0.skip(2).take(4).toArray() }
        assertSame({ $0.map { $0 + 1 }.toArray() }, input: [])
        assertSame({ $0.reduce(7, +) }, input: [])
    }

    func testThrowsBecomeErrorAndStopTheLoop() {
        let seen = Counter()
        assertSame { $0.map { x -> Int in seen.increment(); if x == 3 { throw TestError.boom }; return x } }
        assertSame { $0.filter { x in if x == 4 { throw TestError.boom }; return true } }
        assertSame { $0.compactMap { x -> Int? in if x == 4 { throw TestError.boom }; return x } }
        assertSame { $0.scan(0) { acc, x in if x == 5 { throw TestError.boom }; return acc + x } }
        assertSame { $0.reduce(0) { acc, x in if x == 5 { throw TestError.boom }; return acc + x } }
        // Each run (fused, then unfused) stopped at the throwing value: 4 calls each.
        XCTAssertEqual(seen.value, 8)
        XCTAssertEqual(events(DataStream<Int>.just(error: TestError.boom).map { $0 + 1 }), [.error(TestError.boom)])
        XCTAssertEqual(events(DataStream<Int>.empty().map { $0 + 1 }), [.end])
        XCTAssertEqual(events(DataStream.just(4).map { $0 + 1 }), [.data(5), .end])
    }

    func testTakeStopsAnEndlessFusedSource() {
        let pulled = Counter()
        let stream = DataStream.from(1...).map { x -> Int in pulled.increment(); return x }.filter { $0 % 2 == 0 }.take(3)
        XCTAssertEqual(events(stream), [.data(2), .data(4), .data(6), .end])
        XCTAssertEqual(pulled.value, 6)
        XCTAssertEqual(events(DataStream.from(1...).take(2).toArray()), [.data([1, 2]), .end])
    }

    func testDisposalFromAnotherThreadStopsAnEndlessFusedSource() {
        // Filters out everything: the stop check must be per source value, not per survivor.
        assertAnotherThreadStopsAnEndlessFusedSource { $0.filter { _ in false } }
    }

    func testLiveSubscriptionsReturnToBaseline() {
        let baseline = StreamDiagnostics.liveSubscriptions
        let sum = Counter()
        for _ in 0..<100 {
            DataStream.from(0..<10).map { $0 + 1 }.filter { $0 > 2 }.reduce(0, +).watch(data: { _ in sum.increment() })
            DataStream.from(0..<10).redirect { DataStream.just($0).map { $0 * 2 } }.watch(data: { _ in sum.increment() })
            DataStream.from(1...).take(3).watch(data: { _ in sum.increment() })
        }
        XCTAssertEqual(sum.value, 100 * (1 + 10 + 3))
        XCTAssertEqual(StreamDiagnostics.liveSubscriptions, baseline)
    }

    func testRedirectOfFusedInnersMatchesUnfusedInners() {
        let input = Array(0..<30)
        for make in [
            { (x: Int) in DataStream.just(x) },
            { (x: Int) in DataStream.from([x, x + 100]).filter { $0 % 3 != 0 } },
            { (x: Int) in x == 7 ? DataStream<Int>.just(error: TestError.boom) : DataStream.just(x) },
            { (x: Int) in DataStream.just(x).map { v -> Int in if v == 9 { throw TestError.other }; return v } },
            { (x: Int) in x % 2 == 0 ? DataStream<Int>.empty() : DataStream.from(0...).take(2) },
        ] as [@Sendable (Int) -> DataStream<Int>] {
            let plain: @Sendable (Int) -> DataStream<Int> = { x in
                let fused = make(x)
                return DataStream { watcher in fused.watch(using: watcher) }
            }
            for limit in [1, 2, Int.max] {
                let baseline = StreamDiagnostics.liveSubscriptions
                XCTAssertEqual(
                    events(DataStream.from(input).redirect(maxConcurrent: limit, make)),
                    events(DataStream.from(input).redirect(maxConcurrent: limit, plain)))
                XCTAssertEqual(
                    events(DataStream.from(input).concatMap(make).take(5)),
                    events(DataStream.from(input).concatMap(plain).take(5)))
                XCTAssertEqual(StreamDiagnostics.liveSubscriptions, baseline)
            }
        }
    }

    /// Subscriptions alive while `stream`'s only value is delivered, above those alive before.
    private func subscriptionsAliveAtTheValue(_ stream: DataStream<Int>) -> Int {
        let baseline = StreamDiagnostics.liveSubscriptions
        let alive = Reading()
        stream.watch(data: { _ in alive.set(StreamDiagnostics.liveSubscriptions - baseline) })
        return alive.value
    }

    func testRedirectRunsAFusedInnerInPlaceWithoutASubscriptionOfItsOwn() {
        let unfused: @Sendable (Int) -> DataStream<Int> = { x in
            DataStream { watcher in
                watcher.data(x)
                watcher.end()
                return Disposable()
            }
        }
        // The watch's own subscription and the source's; an unfused inner adds its own.
        XCTAssertEqual(subscriptionsAliveAtTheValue(DataStream.just(1).redirect { DataStream.just($0) }), 2)
        XCTAssertEqual(subscriptionsAliveAtTheValue(DataStream.just(1).redirect(unfused)), 3)
        XCTAssertEqual(subscriptionsAliveAtTheValue(DataStream.concat(DataStream.just(1), DataStream<Int>.empty())), 2)
    }

    /// Past 64 fused stages operators fall back to watchers, so a long chain nests no deeper
    /// than the unfused one. 10,000 in release (as `chain.10000` in Benchmarks); a debug build's
    /// frames are larger, so there the same 2,000 as `RecursionContractTests`.
    func testALongChainOverAFusedSourceFitsTheStack() {
        #if DEBUG
        let length = 2_000
        #else
        let length = 10_000
        #endif
        let result = Locked(0)
        onEightMebibyteStack(self) {
            var stream = DataStream.from([0])
            for _ in 0..<length { stream = stream.map { $0 + 1 } }
            stream.filter { _ in true }.reduce(0, +).watch(data: { result.set($0) })
        }
        XCTAssertEqual(result.get(), length)
    }
}

/// One number read on whichever thread, kept for the test to check.
private final class Reading: Sendable {
    private let stored = Mutex(-1)
    var value: Int { stored.withLock { $0 } }
    func set(_ value: Int) { stored.withLock { $0 = value } }
}
