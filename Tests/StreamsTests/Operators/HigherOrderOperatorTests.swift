// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
import Streams
import StreamsTesting

final class RedirectTests: XCTestCase {
    // source: -a-----b-|  redirect: --a1-a2-b1-a3-b2-|
    func testRedirectMergesInnerStreamsAsTheyEmit() {
        let source = Streamer<String>()
        let inners = ["a": Streamer<String>(), "b": Streamer<String>()]
        let recorder = EventRecorder<String>()
        source.redirect { inners[$0]! }.watch(using: recorder.watcher)
        source.data("a"); inners["a"]!.data("a1"); source.data("b"); inners["b"]!.data("b1"); inners["a"]!.data("a2")
        XCTAssertEqual(recorder.values, ["a1", "b1", "a2"])
    }

    func testRedirectEndsOnlyWhenTheSourceAndEveryInnerHaveEnded() {
        let source = Streamer<Int>(), inner = Streamer<Int>()
        let recorder = EventRecorder<Int>()
        source.redirect { _ in inner }.watch(using: recorder.watcher)
        source.data(1); source.end()
        XCTAssertEqual(recorder.events, [])
        inner.end()
        XCTAssertEqual(recorder.events, [.end])
    }

    func testRedirectWithMaxConcurrentQueuesValuesUntilASlotFrees() {
        let source = Streamer<Int>()
        let inners = (0..<3).map { _ in Streamer<Int>() }
        source.redirect(maxConcurrent: 2) { inners[$0] }.watch { _ in }
        source.data(0); source.data(1); source.data(2)
        XCTAssertEqual(inners.map(\.watcherCount), [1, 1, 0])
        inners[0].end()
        XCTAssertEqual(inners.map(\.watcherCount), [0, 1, 1])
    }

    func testRedirectFailsWhenAnInnerFailsAndDisposesEverything() {
        let source = Streamer<Int>(), healthy = Streamer<Int>()
        let recorder = EventRecorder<Int>()
        source.redirect { $0 == 0 ? healthy.asDataStream() : DataStream<Int>.just(error: TestError.boom) }
            .watch(using: recorder.watcher)
        source.data(0); source.data(1)
        XCTAssertEqual(recorder.events, [.error(TestError.boom)])
        XCTAssertEqual(source.watcherCount, 0)
        XCTAssertEqual(healthy.watcherCount, 0)
    }

    func testAThrowingRedirectDeliversAnError() {
        let recorder = EventRecorder<Int>()
        DataStream.just(1).redirect { _ -> DataStream<Int> in throw TestError.boom }.watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.error(TestError.boom)])
    }

    func testDisposingARedirectDisposesItsInnerStreams() {
        let source = Streamer<Int>(), inner = Streamer<Int>()
        let subscription = source.redirect { _ in inner }.watch { _ in }
        source.data(1)
        XCTAssertEqual(inner.watcherCount, 1)
        subscription.dispose()
        XCTAssertEqual(inner.watcherCount, 0)
        XCTAssertEqual(source.watcherCount, 0)
    }

    func testRedirectFromASynchronousSourceKeepsAsynchronousInnersRunning() {
        let inner = Streamer<Int>()
        let recorder = EventRecorder<Int>()
        DataStream.just(data: [1, 2]).redirect { _ in inner }.watch(using: recorder.watcher)
        inner.data(7)
        XCTAssertEqual(recorder.values, [7, 7])
    }

    // The redirect's own subscription holds its source and its inner streams.

    // source:                 -a|
    // inner (for a):            --x--y|
    // redirect, disposed at 450: ---x--        the inner watched 100...450, after the source ended
    func testDisposingARedirectAfterItsSourceEndedDisposesTheInnerStillRunning() {
        let scheduler = TestScheduler()
        let source = scheduler.hotStream("-a|", frame: .milliseconds(100))
        let inner = scheduler.coldStream("--x--y|", frame: .milliseconds(100))
        let recorder = scheduler.start(subscribed: 0, disposed: 450) { source.asDataStream().redirect { _ in inner } }
        XCTAssertEqual(recorder.events, [.data(300, "x")])
        XCTAssertEqual(source.subscriptions, [SubscriptionSpan(0, 200)])
        XCTAssertEqual(inner.subscriptions, [SubscriptionSpan(100, 450)])
    }

    // source:                 -a-b|
    // inners:                   -x|  -y|
    // redirect:               --x-y|          nothing left watched once it ended
    func testARedirectThatEndedLeavesNoSubscriptionBehind() {
        let baseline = StreamDiagnostics.liveSubscriptions
        let scheduler = TestScheduler()
        let source = scheduler.hotStream("-a-b|", frame: .milliseconds(100))
        let recorder = scheduler.start(subscribed: 0) {
            source.asDataStream().redirect { value in scheduler.coldStream("-\(value)|", frame: .milliseconds(100)).asDataStream() }
        }
        XCTAssertEqual(recorder.events, [.data(200, "a"), .data(400, "b"), .end(500)])
        XCTAssertEqual(StreamDiagnostics.liveSubscriptions, baseline)
    }
}

final class ConcatMapTests: XCTestCase {
    // source: -a-b-|  concatMap: --a1-a2-b1-b2-|
    func testConcatMapPlaysInnerStreamsInOrder() {
        let source = Streamer<Int>()
        let inners = [Streamer<Int>(), Streamer<Int>()]
        let recorder = EventRecorder<Int>()
        source.concatMap { inners[$0] }.watch(using: recorder.watcher)
        source.data(0); source.data(1); source.end()
        inners[1].data(99)
        inners[0].data(1); inners[0].end()
        inners[1].data(2); inners[1].end()
        XCTAssertEqual(recorder.events, [.data(1), .data(2), .end])
    }

    func testConcatMapOfSynchronousInners() {
        let recorder = EventRecorder<Int>()
        DataStream.just(data: [1, 2, 3]).concatMap { DataStream.just(data: [$0, $0 * 10]) }.watch(using: recorder.watcher)
        XCTAssertEqual(recorder.values, [1, 10, 2, 20, 3, 30])
    }
}

final class RedirectLatestTests: XCTestCase {
    // source: -a---b---|  inner(a): -a1-(disposed)  inner(b): -b1-|  result: -a1-b1-|
    func testRedirectLatestFollowsOnlyTheNewestInnerStream() {
        let source = Streamer<Int>()
        let inners = [Streamer<String>(), Streamer<String>()]
        let recorder = EventRecorder<String>()
        source.redirectLatest { inners[$0] }.watch(using: recorder.watcher)
        source.data(0); inners[0].data("a1")
        source.data(1); inners[0].data("a2"); inners[1].data("b1")
        XCTAssertEqual(recorder.values, ["a1", "b1"])
        XCTAssertEqual(inners[0].watcherCount, 0)
    }

    func testRedirectLatestEndsWhenTheSourceAndTheNewestInnerHaveEnded() {
        let source = Streamer<Int>(), inner = Streamer<Int>()
        let recorder = EventRecorder<Int>()
        source.redirectLatest { _ in inner }.watch(using: recorder.watcher)
        source.data(0); source.end()
        XCTAssertEqual(recorder.events, [])
        inner.end()
        XCTAssertEqual(recorder.events, [.end])
    }

    func testRedirectLatestFailsWhenTheCurrentInnerFails() {
        let source = Streamer<Int>()
        let recorder = EventRecorder<Int>()
        source.redirectLatest { _ in DataStream<Int>.just(error: TestError.boom) }.watch(using: recorder.watcher)
        source.data(0)
        XCTAssertEqual(recorder.events, [.error(TestError.boom)])
        XCTAssertEqual(source.watcherCount, 0)
    }
}

final class RetryTests: XCTestCase {
    // 1st: -1-#  2nd: -1-2-|  retry(3): -1-1-2-|
    func testRetryWatchesAgainAfterAnError() {
        let attempts = Counter()
        let recorder = EventRecorder<Int>()
        DataStream<Int>.deferred {
            attempts.increment()
            return attempts.value == 1
                ? DataStream.concat(DataStream.just(1), DataStream.just(error: TestError.boom))
                : DataStream.just(data: [1, 2])
        }.retry(3).watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.data(1), .data(1), .data(2), .end])
    }

    func testRetryGivesUpAfterTheLastRetry() {
        let attempts = Counter()
        let recorder = EventRecorder<Int>()
        DataStream<Int>.deferred { attempts.increment(); return DataStream<Int>.just(error: TestError.boom) }
            .retry(3).watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.error(TestError.boom)])
        XCTAssertEqual(attempts.value, 4)
    }

    func testRetryOnlyRetriesErrorsThePredicateAccepts() {
        let attempts = Counter()
        let recorder = EventRecorder<Int>()
        DataStream<Int>.deferred { attempts.increment(); return DataStream<Int>.just(error: TestError.other) }
            .retry(3, retryIf: { ($0 as? TestError) == .boom }).watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.error(TestError.other)])
        XCTAssertEqual(attempts.value, 1)
    }

    func testRetryWithBackoffWaitsExponentiallyLongerOnTheScheduler() {
        let scheduler = TestScheduler()
        let attemptTimes = EventRecorder<Duration>()
        let backoff = RetryBackoff(initialDelay: .milliseconds(100), multiplier: 2, maxDelay: .seconds(10), jitter: 0)
        DataStream<Int>.deferred {
            attemptTimes.watcher.data(scheduler.now)
            return DataStream<Int>.just(error: TestError.boom)
        }.retry(3, backoff: backoff, scheduler: scheduler).watch { _ in }
        scheduler.run()
        XCTAssertEqual(attemptTimes.values, [.zero, .milliseconds(100), .milliseconds(300), .milliseconds(700)])
    }

    func testRetryBackoffCapsTheDelayAtTheMaximum() {
        let backoff = RetryBackoff(initialDelay: .seconds(1), multiplier: 10, maxDelay: .seconds(5), jitter: 0)
        XCTAssertEqual(backoff.delay(beforeRetry: 3, after: TestError.boom), .seconds(5))
    }

    func testRetryBackoffJitterShortensTheDelayByUpToItsFraction() {
        let backoff = RetryBackoff(initialDelay: .seconds(1), multiplier: 2, maxDelay: .seconds(10), jitter: 0.5, random: { 0.5 })
        XCTAssertEqual(backoff.delay(beforeRetry: 2, after: TestError.boom), .milliseconds(1500))
    }

    func testRetryBackoffOverrideReplacesTheComputedDelay() {
        let backoff = RetryBackoff(delayOverride: { error, _ in (error as? TestError) == .other ? .seconds(7) : nil })
        XCTAssertEqual(backoff.delay(beforeRetry: 1, after: TestError.other), .seconds(7))
    }

    func testDisposingDuringABackoffWaitCancelsTheRetry() {
        let scheduler = TestScheduler()
        let attempts = Counter()
        let subscription = DataStream<Int>.deferred { attempts.increment(); return DataStream<Int>.just(error: TestError.boom) }
            .retry(3, backoff: RetryBackoff(jitter: 0), scheduler: scheduler).watch { _ in }
        subscription.dispose()
        scheduler.run()
        XCTAssertEqual(attempts.value, 1)
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    func testDisposingDuringARetriedAttemptDisposesThatAttempt() {
        let source = Streamer<Int>()
        let failures = Counter()
        let recorder = EventRecorder<Int>()
        let subscription = DataStream<Int>.deferred { () -> DataStream<Int> in
            failures.increment()
            return failures.value == 1 ? .just(error: TestError.boom) : source.asDataStream()
        }.retry(3).watch(using: recorder.watcher)
        XCTAssertEqual(source.watcherCount, 1)
        source.data(5)
        subscription.dispose()
        XCTAssertEqual(source.watcherCount, 0)
        XCTAssertEqual(recorder.events, [.data(5)])
    }

    // The retry's own subscription holds the attempt in progress and the wait before the next.

    // 1st attempt: -#   2nd (after 100 ms): -a|
    // retry(1, backoff 100 ms):  ---a|         nothing left watched once it ended
    func testARetryThatEndedLeavesNoSubscriptionBehind() {
        let baseline = StreamDiagnostics.liveSubscriptions
        let scheduler = TestScheduler()
        let attempts = Counter()
        let backoff = RetryBackoff(initialDelay: .milliseconds(100), maxDelay: .seconds(1), jitter: 0)
        let recorder = scheduler.start(subscribed: 0) {
            DataStream<String>.deferred { () -> DataStream<String> in
                attempts.increment()
                return scheduler.coldStream(attempts.value == 1 ? "-#" : "-a|", frame: .milliseconds(100)).asDataStream()
            }.retry(1, backoff: backoff, scheduler: scheduler)
        }
        XCTAssertEqual(recorder.events, [.data(300, "a"), .end(400)])
        XCTAssertEqual(StreamDiagnostics.liveSubscriptions, baseline)
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    // source (each attempt):    -a-#
    // retry(1, backoff 100 ms) watched at 0 and again at 1000:
    //                           -a-----a-#              each watch gets its own retry and wait
    func testEachWatchOfARetryHasItsOwnRetriesAndWaits() {
        let scheduler = TestScheduler()
        let source = scheduler.coldStream("-a-#", frame: .milliseconds(100))
        let backoff = RetryBackoff(initialDelay: .milliseconds(100), maxDelay: .seconds(1), jitter: 0)
        let retried = source.retry(1, backoff: backoff, scheduler: scheduler)
        let first = RecordingWatcher<String>(scheduler)
        let second = RecordingWatcher<String>(scheduler)
        retried.watch(using: first.watcher)
        scheduler.advance(to: .seconds(1))
        retried.watch(using: second.watcher)
        scheduler.advance(to: .seconds(2))
        let failure = MarbleError()
        XCTAssertEqual(first.events, [.data(100, "a"), .data(500, "a"), .error(700, failure)])
        XCTAssertEqual(second.events, [.data(1_100, "a"), .data(1_500, "a"), .error(1_700, failure)])
        XCTAssertEqual(source.subscriptions, [
            SubscriptionSpan(0, 300), SubscriptionSpan(400, 700), SubscriptionSpan(1_000, 1_300), SubscriptionSpan(1_400, 1_700),
        ])
    }
}
