// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import XCTest
import Synchronization
import Streams
import StreamsTesting

/// Batched fusion: `reduce` and `toArray` over a fused synchronous source run its
/// `map`/`filter`/`compactMap`/`scan`/`skip` stages a batch of up to 128 values at a time.
/// The events must be exactly those of the same chain over an unfusable source, on both
/// sides of every batch boundary; only the order in which the stages' closures run differs.
final class BatchedFusionTests: XCTestCase {
    private let sizes = [0, 1, 127, 128, 129, 1_000]

    /// The pipeline over an array (handed out in place), over a range (copied into batches)
    /// and over an unfusable source, for every size.
    private func assertSame<E: Sendable & Equatable>(
        _ pipeline: (DataStream<Int>) -> DataStream<E>, file: StaticString = #filePath, line: UInt = #line
    ) {
        for size in sizes {
            let plain = events(pipeline(unfused(0..<size)))
            XCTAssertEqual(events(pipeline(DataStream.from(Array(0..<size)))), plain, "array of \(size)", file: file, line: line)
            XCTAssertEqual(events(pipeline(DataStream.from(0..<size))), plain, "range of \(size)", file: file, line: line)
            XCTAssertTrue(plain.last?.isTerminal ?? false, file: file, line: line)
        }
    }

    func testEachBatchedStageDeliversWhatTheUnfusedOneDoes() {
        assertSame { $0.map { $0 * 2 }.reduce(0, +) }
        assertSame { $0.filter { $0 % 3 == 0 }.toArray() }
        assertSame { $0.compactMap { $0 % 2 == 0 ? String($0) : nil }.toArray() }
        assertSame { $0.scan(0, +).toArray() }
        assertSame { $0.map { $0 * 2 }.filter { $0 % 3 == 0 }.reduce(0, +) }
        assertSame { $0.filter { $0 % 7 != 0 }.scan(0, +).map { $0 / 2 }.toArray() }
    }

    func testSkipAcrossBatchBoundaries() {
        for count in [-1, 0, 3, 127, 128, 129, 300, 1_000, 2_000] {
            assertSame { $0.skip(count).toArray() }
            assertSame { $0.filter { $0 % 2 == 1 }.skip(count).reduce(0, +) }
        }
    }

    func testOperatorClosuresWithCapturesGiveTheSameResults() {
        let factor = Int.random(in: 2...5)
        let modulus = factor + 1
        assertSame { $0.map { $0 * factor }.filter { $0 % modulus == 0 }.reduce(0) { $0 + $1 * factor } }
    }

    /// Throws inside the second batch: the values before the throwing one reach `reduce`
    /// first, exactly as one value at a time.
    func testAThrowHandsTheValuesBeforeItDownstreamFirst() {
        for (name, throwing) in [
            ("map", { s in s.map { x -> Int in if x == 300 { throw TestError.boom }; return x } }),
            ("filter", { s in s.filter { x in if x == 300 { throw TestError.boom }; return true } }),
            ("compactMap", { s in s.compactMap { x -> Int? in if x == 300 { throw TestError.boom }; return x } }),
            ("scan", { s in s.scan(0) { _, x in if x == 300 { throw TestError.boom }; return x } }),
        ] as [(String, (DataStream<Int>) -> DataStream<Int>)] {
            let folded = Counter()
            let fold: @Sendable (Int, Int) -> Int = { acc, x in folded.increment(); return acc + x }
            XCTAssertEqual(events(throwing(DataStream.from(Array(0..<1_000))).reduce(0, fold)), [.error(TestError.boom)], name)
            XCTAssertEqual(folded.value, 300, "\(name): values 0..<300 were folded")
        }
    }

    func testAnEarlierThrowDownstreamWinsOverALaterOneUpstream() {
        assertSame {
            $0.map { x -> Int in if x == 300 { throw TestError.boom }; return x }
                .filter { x in if x == 100 { throw TestError.other }; return true }
                .toArray()
        }
        assertSame { $0.map { x -> Int in if x == 300 { throw TestError.boom }; return x }.reduce(0) { acc, x in
            if x == 200 { throw TestError.other }
            return acc + x
        } }
    }

    func testEveryValueABatchStageMadeIsReleasedAlsoAfterAThrow() {
        XCTAssertEqual(Tracked.live.load(ordering: .relaxed), 0)
        let kept = events(DataStream.from(0..<1_000).map { Tracked($0) }.filter { $0.value % 3 == 0 }.toArray())
        XCTAssertEqual(Tracked.live.load(ordering: .relaxed), 334, "only the collected values are alive")
        XCTAssertEqual(kept.count, 2)
        _ = events(DataStream.from(0..<1_000)
            .map { x -> Tracked in if x == 600 { throw TestError.boom }; return Tracked(x) }
            .compactMap { $0.value % 2 == 0 ? $0 : nil }
            .reduce(0) { $0 + $1.value })
        XCTAssertEqual(Tracked.live.load(ordering: .relaxed), 334)
        withExtendedLifetime(kept) {}
    }

    /// `take` has no batched form: a chain through it pulls values one at a time and never
    /// runs a closure on a value past the last one taken.
    func testTakeInAReducedChainPullsNoValuePastItsLast() {
        let pulled = Counter()
        let sum = DataStream.from(1...).map { x -> Int in pulled.increment(); return x }.take(3).reduce(0, +)
        XCTAssertEqual(events(sum), [.data(6), .end])
        XCTAssertEqual(pulled.value, 3)
        let counted = Counter()
        let firstValues = DataStream.from(Array(0..<1_000)).map { x -> Int in counted.increment(); return x }.take(300).toArray()
        XCTAssertEqual(events(firstValues), [.data(Array(0..<300)), .end])
        XCTAssertEqual(counted.value, 300)
    }

    func testDisposalFromAnotherThreadStopsAnEndlessBatchedReduce() {
        assertAnotherThreadStopsAnEndlessFusedSource { $0.map { $0 & 1 }.reduce(0, +) }
    }

    /// The documented difference: under `reduce`, `map` runs over a whole batch before
    /// `reduce` sees its first value (one at a time they would alternate).
    func testStagesUnderReduceRunBatchByBatch() {
        let log = Locked<[String]>([])
        _ = events(DataStream.from(Array(0..<600))
            .map { x -> Int in log.set(log.get() + ["map \(x)"]); return x }
            .reduce(0) { acc, x in log.set(log.get() + ["reduce \(x)"]); return acc + x })
        let expected = stride(from: 0, to: 600, by: 128).map { $0..<min($0 + 128, 600) }.flatMap { batch in
            batch.map { "map \($0)" } + batch.map { "reduce \($0)" }
        }
        XCTAssertEqual(log.get(), expected)
    }
}

/// Counts its live instances, to show a batch stage releases what it made.
private final class Tracked: Sendable {
    static let live = Atomic<Int>(0)
    let value: Int
    init(_ value: Int) {
        self.value = value
        Tracked.live.add(1, ordering: .relaxed)
    }
    deinit { Tracked.live.subtract(1, ordering: .relaxed) }
}
