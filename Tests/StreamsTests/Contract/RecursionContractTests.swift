// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import XCTest
import Streams
import StreamsTesting

/// Contract 5: no unbounded recursion. Each test runs on a thread with an
/// 8 MiB stack; recursing per element would overflow it.
final class RecursionContractTests: XCTestCase {
    func testConcatOf100000SynchronousStreamsFitsTheStack() {
        let recorder = Counter()
        onEightMebibyteStack(self) {
            let sources = (0..<100_000).map { DataStream.just($0) as any StreamType<Int> }
            DataStream.concat(sources).watch(data: { _ in recorder.increment() })
        }
        XCTAssertEqual(recorder.value, 100_000)
    }

    func testRetry50000OfASynchronousFailureFitsTheStack() {
        let attempts = Counter()
        let failed = Counter()
        onEightMebibyteStack(self) {
            DataStream<Int>.deferred { attempts.increment(); return DataStream<Int>.just(error: TestError.boom) }
                .retry(50_000)
                .watch(error: { _ in failed.increment() })
        }
        XCTAssertEqual(attempts.value, 50_001)
        XCTAssertEqual(failed.value, 1)
    }

    func testAChainOf2000MapsFitsTheStack() {
        let result = Locked(0)
        onEightMebibyteStack(self) {
            var stream = DataStream.just(0)
            for _ in 0..<2_000 { stream = stream.map { $0 + 1 } }
            stream.watch(data: { result.set($0) })
        }
        XCTAssertEqual(result.get(), 2_000)
    }

    func testConcatMapOver100000SynchronousInnersFitsTheStack() {
        let sum = Locked(0)
        onEightMebibyteStack(self) {
            DataStream.from(0..<100_000).concatMap { DataStream.just($0) }.reduce(0, +).watch(data: { sum.set($0) })
        }
        XCTAssertEqual(sum.get(), (0..<100_000).reduce(0, +))
    }

    func testQueuedConcatMapInnersStartingEachOtherFitTheStack() {
        let count = Counter()
        let source = Streamer<Int>()
        let gate = Streamer<Int>()
        onEightMebibyteStack(self) {
            source.concatMap { $0 == 0 ? gate.asDataStream() : DataStream.just($0) }.watch(data: { _ in count.increment() })
            for value in 0..<100_000 { source.data(value) }
            gate.end()
        }
        XCTAssertEqual(count.value, 99_999)
    }

    func testRedirectOver100000SynchronousInnersFitsTheStack() {
        let count = Counter()
        onEightMebibyteStack(self) {
            DataStream.from(0..<100_000).redirect { DataStream.just($0) }.watch(data: { _ in count.increment() })
        }
        XCTAssertEqual(count.value, 100_000)
    }
}
