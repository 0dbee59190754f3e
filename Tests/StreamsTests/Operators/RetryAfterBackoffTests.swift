// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Streams
import StreamsTesting
import XCTest

/// `RetryBackoff.honouringRetryAfter` and `maxTotalWait`, on virtual time: a server-named wait
/// replaces the back-off, and the waits of one subscription add up to no more than the bound.
final class RetryAfterBackoffTests: XCTestCase {
    private struct Busy: RetryAfterError, Equatable {
        var retryAfter: Duration?
    }

    /// The virtual times at which attempts started, and what the subscriber saw.
    private func attempts(
        failing errors: [any Error], maxRetries: Int = 5, backoff: RetryBackoff
    ) -> (times: [Duration], events: [Event<Int>]) {
        let scheduler = TestScheduler()
        let times = EventRecorder<Duration>()
        let recorder = EventRecorder<Int>()
        let count = Counter()
        DataStream<Int>.deferred {
            times.watcher.data(scheduler.now)
            count.increment()
            return count.value <= errors.count ? .just(error: errors[count.value - 1]) : .just(1)
        }.retry(maxRetries, backoff: backoff, scheduler: scheduler).watch(using: recorder.watcher)
        scheduler.run()
        return (times.values, recorder.events)
    }

    func testTheServerNamedWaitReplacesTheBackoff() {
        let run = attempts(failing: [Busy(retryAfter: .seconds(2)), Busy(retryAfter: nil)], backoff: .honouringRetryAfter(initialDelay: .milliseconds(100), jitter: 0))
        XCTAssertEqual(run.times, [.zero, .seconds(2), .milliseconds(2_200)], "2 s as asked, then the second back-off (200 ms)")
        XCTAssertEqual(run.events, [.data(1), .end])
    }

    func testJitterDoesNotShortenTheServerNamedWait() {
        let run = attempts(failing: [Busy(retryAfter: .seconds(2))], backoff: .honouringRetryAfter(jitter: 1, random: { 0.9 }))
        XCTAssertEqual(run.times, [.zero, .seconds(2)])
    }

    func testOtherErrorsWaitTheBackoff() {
        let run = attempts(failing: [TestError.boom], backoff: .honouringRetryAfter(initialDelay: .milliseconds(250), jitter: 0))
        XCTAssertEqual(run.times, [.zero, .milliseconds(250)])
    }

    func testAWaitPastTheTotalBoundDeliversTheErrorAtOnce() {
        let last = Busy(retryAfter: .seconds(8))
        let run = attempts(failing: [Busy(retryAfter: .seconds(3)), last], backoff: .honouringRetryAfter(jitter: 0, maxTotalWait: .seconds(10)))
        XCTAssertEqual(run.times, [.zero, .seconds(3)], "3 s + 8 s would pass 10 s")
        XCTAssertEqual(run.events, [.error(last)])
    }

    func testWaitsUpToTheTotalBoundAreWaited() {
        let run = attempts(failing: [Busy(retryAfter: .seconds(3)), Busy(retryAfter: .seconds(7))], backoff: .honouringRetryAfter(jitter: 0, maxTotalWait: .seconds(10)))
        XCTAssertEqual(run.times, [.zero, .seconds(3), .seconds(10)])
        XCTAssertEqual(run.events, [.data(1), .end])
    }

    func testTheTotalBoundCountsEachSubscriptionOnItsOwn() {
        let scheduler = TestScheduler()
        let backoff = RetryBackoff.honouringRetryAfter(jitter: 0, maxTotalWait: .seconds(5))
        let failing = DataStream<Int>.just(error: Busy(retryAfter: .seconds(4))).retry(1, backoff: backoff, scheduler: scheduler)
        let first = EventRecorder<Int>(), second = EventRecorder<Int>()
        failing.watch(using: first.watcher)
        scheduler.run()
        failing.watch(using: second.watcher)
        XCTAssertEqual(scheduler.pendingCount, 1, "the second subscription waits its 4 s too")
        scheduler.run()
        XCTAssertEqual(first.events, [.error(Busy(retryAfter: .seconds(4)))])
        XCTAssertEqual(second.events, [.error(Busy(retryAfter: .seconds(4)))])
    }

    func testTheBoundIsAskedWithTheWaitsSoFar() {
        let backoff = RetryBackoff(initialDelay: .seconds(1), jitter: 0, maxTotalWait: .seconds(4))
        XCTAssertEqual(backoff.delay(beforeRetry: 2, after: TestError.boom, waited: .seconds(1)), .seconds(2))
        XCTAssertNil(backoff.delay(beforeRetry: 3, after: TestError.boom, waited: .seconds(3)), "4 s more would make 7")
    }

    func testAWaitOfAgesIsCutToACenturyAndTheWaitsAddUpWithoutATrap() {
        let century = Duration.seconds(100 * 365 * 86_400)
        let ages = Busy(retryAfter: .seconds(Int64.max))
        let run = attempts(failing: Array(repeating: ages, count: 8), maxRetries: 7, backoff: .honouringRetryAfter(maxTotalWait: nil))
        XCTAssertEqual(run.times, (0...7).map { century * $0 }, "seven centuries: more nanoseconds than 64 bits hold")
        XCTAssertEqual(run.events, [.error(ages)])
    }

    func testAWaitOfAgesOnAQueueSchedulerIsScheduledAndDisposed() {
        let retried = DataStream<Int>.just(error: Busy(retryAfter: .seconds(Int64.max)))
            .retry(1, backoff: .honouringRetryAfter(maxTotalWait: nil), scheduler: QueueScheduler(label: "test.retry-after.ages"))
        let recorder = EventRecorder<Int>()
        let subscription = retried.watch(using: recorder.watcher)
        subscription.dispose()
        XCTAssertEqual(recorder.events, [], "waiting, not failed, until disposed")
    }
}
