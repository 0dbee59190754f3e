// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Synchronization
import XCTest
import Streams
import StreamsTesting

/// A watcher that feeds the next value back into the source from inside its
/// handler, 50,000 times, through operators that the `ImmediateScheduler` runs
/// synchronously: each round must return before the next starts (no recursion),
/// or the stack overflows.
final class TimeOperatorFeedbackTests: XCTestCase {
    private let rounds = 50_000

    func testDebounceWithoutDelay() {
        XCTAssertEqual(feedBack { $0.debounce(.zero, scheduler: ImmediateScheduler()) }, rounds)
    }

    func testDelayWithoutDelay() {
        XCTAssertEqual(feedBack { $0.delay(.zero, scheduler: ImmediateScheduler()) }, rounds)
    }

    func testThrottleWithoutInterval() {
        XCTAssertEqual(feedBack { $0.throttle(.zero, scheduler: ImmediateScheduler()) }, rounds)
    }

    func testTimeout() {
        XCTAssertEqual(feedBack { $0.timeout(.seconds(60), scheduler: ImmediateScheduler()) }, rounds)
    }

    func testTakeFor() {
        XCTAssertEqual(feedBack { $0.take(for: .seconds(60), scheduler: ImmediateScheduler()) }, rounds)
    }

    func testBufferOfOne() {
        XCTAssertEqual(feedBack { $0.buffer(count: 1).map { $0[0] } }, rounds)
    }

    /// Returns how many values the watcher received.
    private func feedBack(through operatorUnderTest: (DataStream<Int>) -> DataStream<Int>) -> Int {
        let feed = Mutex<Watcher<Int>?>(nil)
        let source = DataStream<Int> { watcher in
            feed.withLock { $0 = watcher }
            return Disposable()
        }
        let received = Counter()
        let subscription = operatorUnderTest(source).watch { [rounds] event in
            guard case .data(let value) = event else { return }
            received.increment()
            let watcher = feed.withLock { $0 }
            if value < rounds { watcher?.data(value + 1) } else { watcher?.end() }
        }
        feed.withLock { $0 }?.data(1)
        subscription.dispose()
        return received.value
    }
}
