// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Streams
import StreamsTesting
import XCTest

/// `RetryBackoff.onRetry`: the hook a caller uses to publish retry events and count retries.
final class RetryBackoffHookTests: XCTestCase {
    struct Failure: Error, Equatable { let attempt: Int }

    /// What the hook saw, with the virtual time it saw it.
    final class RetryLog: Sendable {
        private let entries = StreamServiceConcurrency.Locked<[(at: Duration, number: Int, error: Failure?, delay: Duration)]>([])
        func record(_ retry: RetryBackoff.Retry, at now: Duration) {
            entries.withLock { $0.append((now, retry.number, retry.error as? Failure, retry.delay)) }
        }
        var numbers: [Int] { entries.withLock { $0.map(\.number) } }
        var delays: [Duration] { entries.withLock { $0.map(\.delay) } }
        var times: [Duration] { entries.withLock { $0.map(\.at) } }
        var errors: [Failure?] { entries.withLock { $0.map(\.error) } }
    }

    /// Fails the first `failures` subscriptions with `Failure(attempt:)`, then emits 42.
    func flaky(failures: Int) -> DataStream<Int> {
        let attempts = StreamServiceConcurrency.Locked(0)
        return DataStream.deferred {
            let attempt = attempts.withLock { count -> Int in
                count += 1
                return count
            }
            return attempt <= failures ? DataStream<Int>.just(error: Failure(attempt: attempt)) : DataStream.just(42)
        }
    }

    func testHookHearsEachRetryWithItsNumberErrorAndDelayBeforeTheWait() {
        let scheduler = TestScheduler()
        let log = RetryLog()
        let backoff = RetryBackoff(
            initialDelay: .milliseconds(100), multiplier: 2, maxDelay: .seconds(1), jitter: 0,
            onRetry: { log.record($0, at: scheduler.now) })
        let recorder = EventRecorder<Int>()
        _ = flaky(failures: 2).retry(3, backoff: backoff, scheduler: scheduler).watch(using: recorder.watcher)
        XCTAssertEqual(log.numbers, [1], "the first retry is reported as soon as it is decided")
        scheduler.run()
        XCTAssertEqual(log.numbers, [1, 2])
        XCTAssertEqual(log.errors, [Failure(attempt: 1), Failure(attempt: 2)])
        XCTAssertEqual(log.delays, [.milliseconds(100), .milliseconds(200)])
        XCTAssertEqual(log.times, [.zero, .milliseconds(100)])
        XCTAssertEqual(recorder.values, [42])
    }

    func testHookReportsTheDelayAServerAskedFor() {
        let scheduler = TestScheduler()
        let log = RetryLog()
        let backoff = RetryBackoff(
            initialDelay: .milliseconds(100), jitter: 0,
            delayOverride: { error, _ in (error as? Failure).map { .seconds($0.attempt * 2) } },
            onRetry: { log.record($0, at: scheduler.now) })
        _ = flaky(failures: 2).retry(5, backoff: backoff, scheduler: scheduler).watch { _ in }
        scheduler.run()
        XCTAssertEqual(log.delays, [.seconds(2), .seconds(4)])
        XCTAssertEqual(log.times, [.zero, .seconds(2)])
    }

    func testAWaitBeyondTheWaitLimitIsCutToItAndReportedSo() {
        let scheduler = TestScheduler()
        let log = RetryLog()
        var backoff = RetryBackoff(
            initialDelay: .milliseconds(100), multiplier: 2, maxDelay: .seconds(1), jitter: 0,
            delayOverride: { error, _ in (error as? Failure)?.attempt == 2 ? .seconds(5) : nil },
            onRetry: { log.record($0, at: scheduler.now) })
        // What is left of 250 ms from the subscription.
        backoff.waitLimit = { .milliseconds(250) - scheduler.now }
        let recorder = EventRecorder<Int>()
        _ = flaky(failures: 3).retry(5, backoff: backoff, scheduler: scheduler).watch(using: recorder.watcher)
        scheduler.run()
        XCTAssertEqual(log.delays, [.milliseconds(100), .milliseconds(150), .zero], "the 5 s a server asked for is cut to the 150 ms left; past the limit, no wait")
        XCTAssertEqual(log.times, [.zero, .milliseconds(100), .milliseconds(250)])
        XCTAssertEqual(recorder.values, [42])
    }

    func testHookIsSilentForAnErrorThatIsNotRetried() {
        let scheduler = TestScheduler()
        let log = RetryLog()
        let backoff = RetryBackoff(retryIf: { _ in false }, onRetry: { log.record($0, at: scheduler.now) })
        let recorder = EventRecorder<Int>()
        _ = flaky(failures: 1).retry(3, backoff: backoff, scheduler: scheduler).watch(using: recorder.watcher)
        scheduler.run()
        XCTAssertEqual(recorder.events.count, 1, "the error is delivered at once")
        XCTAssertEqual(log.numbers, [])
    }

    func testHookIsSilentOnceTheRetriesAreSpent() {
        let scheduler = TestScheduler()
        let log = RetryLog()
        let backoff = RetryBackoff(initialDelay: .milliseconds(10), jitter: 0, onRetry: { log.record($0, at: scheduler.now) })
        let recorder = EventRecorder<Int>()
        _ = flaky(failures: 10).retry(2, backoff: backoff, scheduler: scheduler).watch(using: recorder.watcher)
        scheduler.run()
        XCTAssertEqual(log.numbers, [1, 2])
        guard case .error(let error)? = recorder.events.last else { return XCTFail("expected the last error") }
        XCTAssertEqual(error as? Failure, Failure(attempt: 3))
    }

    /// The delay a fused stage asks for with its own limit (`delay(beforeRetry:after:waited:limit:)`)
    /// is the one the retry operator gets with that limit as `waitLimit`, and the hook is left to the
    /// caller.
    func testADelayAskedWithALimitIsTheDelayWithThatWaitLimitWithoutTheHook() {
        let log = RetryLog()
        var backoff = RetryBackoff(initialDelay: .milliseconds(100), jitter: 0, maxTotalWait: .milliseconds(250), onRetry: { log.record($0, at: .zero) })
        var limited = backoff
        limited.waitLimit = { .milliseconds(150) }
        for (retry, waited) in [(1, Duration.zero), (2, .milliseconds(100)), (3, .zero), (3, .milliseconds(200))] {
            let error = Failure(attempt: retry)
            XCTAssertEqual(
                backoff.delay(beforeRetry: retry, after: error, waited: waited, limit: { .milliseconds(150) }),
                limited.delay(beforeRetry: retry, after: error, waited: waited), "retry \(retry) after \(waited)")
        }
        backoff.onRetry = { _ in XCTFail("the hook is the caller's") }
        _ = backoff.delay(beforeRetry: 1, after: Failure(attempt: 1), waited: .zero, limit: { nil })
        XCTAssertEqual(log.numbers, [1, 2, 3], "only the operator's way heard the retries it allowed")
    }
}
