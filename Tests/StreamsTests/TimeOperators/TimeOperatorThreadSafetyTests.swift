// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Dispatch
import Synchronization
import XCTest
import Streams
import StreamsTesting

/// Time-based operators on a real concurrent scheduler, fed from several threads at
/// once: their timers fire on other threads while values arrive, and the watcher
/// must still see one event at a time, in grammar. Run under `--sanitize=thread`.
final class TimeOperatorThreadSafetyTests: XCTestCase {
    private let feeders = 4
    private let valuesPerFeeder = 2_000

    func testDebounceStaysSerialized() {
        let seen = run { $0.debounce(.microseconds(50), scheduler: QueueScheduler.global) }
        XCTAssertGreaterThan(seen.count, 0)
    }

    func testThrottleStaysSerialized() {
        let seen = run { $0.throttle(.microseconds(50), scheduler: QueueScheduler.global) }
        XCTAssertGreaterThan(seen.count, 0)
    }

    func testDelayStaysSerializedAndLosesNothing() {
        let seen = run { $0.delay(.microseconds(50), scheduler: QueueScheduler.global) }
        XCTAssertEqual(seen.count, feeders * valuesPerFeeder)
    }

    func testBufferByTimeSpanStaysSerializedAndLosesNothing() {
        let seen = run { $0.buffer(timeSpan: .microseconds(200), count: 64, scheduler: QueueScheduler.global).redistribute() }
        XCTAssertEqual(seen.count, feeders * valuesPerFeeder)
    }

    func testTimeoutStaysSerializedAndLosesNothing() {
        let seen = run { $0.timeout(.seconds(30), scheduler: QueueScheduler.global) }
        XCTAssertEqual(seen.count, feeders * valuesPerFeeder)
    }

    func testTakeForStaysSerializedAndEndsWithItsLastValueOrTheSourcesEnd() {
        let seen = run { $0.take(for: .microseconds(200), scheduler: QueueScheduler.global, last: -1) }
        // The deadline won (its last value ends what was seen) or the source ended first (all of it).
        if seen.last == -1 {
            XCTAssertEqual(seen.filter { $0 == -1 }.count, 1)
        } else {
            XCTAssertEqual(seen.count, feeders * valuesPerFeeder)
        }
    }

    func testObserveOnStaysSerializedAndLosesNothing() {
        let seen = run { $0.observe(on: QueueScheduler.global) }
        XCTAssertEqual(seen.count, feeders * valuesPerFeeder)
    }

    /// Feeds `feeders` threads' values through `operatorUnderTest`, then ends; returns
    /// the values seen, after checking no two events overlapped and nothing followed the end.
    private func run(_ operatorUnderTest: (Streamer<Int>) -> DataStream<Int>) -> [Int] {
        let source = Streamer<Int>()
        let inside = Atomic<Bool>(false)
        let violations = Atomic<Int>(0)
        let terminals = Atomic<Int>(0)
        let received = Mutex<[Int]>([])
        let ended = expectation(description: "ended")
        let subscription = operatorUnderTest(source).watch { event in
            if inside.exchange(true, ordering: .acquiringAndReleasing) { violations.add(1, ordering: .relaxed) }
            if terminals.load(ordering: .acquiring) > 0 { violations.add(1, ordering: .relaxed) }
            switch event {
            case .data(let value): received.withLock { $0.append(value) }
            case .error, .end: terminals.add(1, ordering: .releasing)
            }
            inside.store(false, ordering: .releasing)
            if event.isTerminal { ended.fulfill() }
        }
        let fed = DispatchGroup()
        for feeder in 0..<feeders {
            DispatchQueue.global().async(group: fed) { [valuesPerFeeder] in
                for value in 0..<valuesPerFeeder { source.data(feeder * valuesPerFeeder + value) }
            }
        }
        fed.notify(queue: .global()) { source.end() }
        wait(for: [ended], timeout: 30)
        subscription.dispose()
        XCTAssertEqual(violations.load(ordering: .relaxed), 0)
        XCTAssertEqual(terminals.load(ordering: .relaxed), 1)
        return received.withLock { $0 }
    }
}

private extension DataStream where Element == [Int] {
    /// The arrays' elements one by one, so buffered output can be counted like the rest.
    func redistribute() -> DataStream<Int> {
        DataStream<Int> { watcher in
            self.watch { event in
                switch event {
                case .data(let values): for value in values { watcher.data(value) }
                case .error(let error): watcher.error(error)
                case .end: watcher.end()
                }
            }
        }
    }
}
