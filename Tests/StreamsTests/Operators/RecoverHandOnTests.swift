// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
import Streams
import StreamsTesting

/// `recover` hands its downstream on and returns the source's own subscription; after an error
/// that subscription is handed over to the fallback's. These are the paths of that contract:
/// the source succeeding, failing later (asynchronously) or at once (while it is being
/// watched), the handler throwing, and disposal before, during and after the fallback.
/// `asDataStream()` makes the hot source one whose subscription stops its watcher, so recover
/// takes the hand-on path; over the hot stream itself it keeps a subscription of its own.
final class RecoverHandOnTests: XCTestCase {
    // source:    -a-b-|
    // recover:   -a-b-|     the handler never runs
    func testASucceedingSourcePassesThroughAndTheHandlerNeverRuns() {
        let scheduler = TestScheduler()
        let source = scheduler.hotStream("-a-b-|", frame: .milliseconds(100))
        let calls = Counter()
        let recorder = scheduler.start(subscribed: 0) {
            source.asDataStream().recover { _ -> DataStream<String> in
                calls.increment()
                return .empty()
            }
        }
        XCTAssertEqual(recorder.events, [.data(100, "a"), .data(300, "b"), .end(500)])
        XCTAssertEqual(source.subscriptions, [SubscriptionSpan(0, 500)])
        XCTAssertEqual(calls.value, 0)
    }

    // source:    -a-#
    // fallback:     -x-y|
    // recover:   -a--x-y|
    func testAnErrorLaterOnContinuesWithTheFallbackInTheSourcesPlace() {
        let scheduler = TestScheduler()
        let source = scheduler.hotStream("-a-#", frame: .milliseconds(100))
        let fallback = scheduler.coldStream("-x-y|", frame: .milliseconds(100))
        let recorder = scheduler.start(subscribed: 0) { source.asDataStream().recover { _ in fallback } }
        XCTAssertEqual(recorder.events, [.data(100, "a"), .data(400, "x"), .data(600, "y"), .end(700)])
        XCTAssertEqual(source.subscriptions, [SubscriptionSpan(0, 300)])
        XCTAssertEqual(fallback.subscriptions, [SubscriptionSpan(300, 700)])
    }

    // source:    -a-#
    // handler:      runs after the source's subscription is disposed
    func testTheSourceIsDisposedBeforeTheFallbackIsWatched() {
        let scheduler = TestScheduler()
        let source = scheduler.hotStream("-a-#", frame: .milliseconds(100))
        let log = Locked<[String]>([])
        _ = scheduler.start(subscribed: 0) {
            source.asDataStream()
                .call(disposed: { log.set(log.get() + ["source disposed"]) })
                .recover { _ -> DataStream<String> in
                    log.set(log.get() + ["fallback made"])
                    return .empty()
                }
        }
        XCTAssertEqual(log.get(), ["source disposed", "fallback made"])
    }

    // source:    -a-#
    // fallback:     -x-y-z|
    // recover:   -a--x-y     disposed at 550: the subscription recover returned reaches the fallback
    func testDisposingAfterTheErrorDisposesTheFallback() {
        let scheduler = TestScheduler()
        let source = scheduler.hotStream("-a-#", frame: .milliseconds(100))
        let fallback = scheduler.coldStream("-x-y-z|", frame: .milliseconds(100))
        let recorder = scheduler.start(subscribed: 0, disposed: 550) { source.asDataStream().recover { _ in fallback } }
        XCTAssertEqual(recorder.events, [.data(100, "a"), .data(400, "x")])
        XCTAssertEqual(fallback.subscriptions, [SubscriptionSpan(300, 550)])
    }

    // source:    -a-b-#      disposed at 250: the fallback is never made
    func testDisposingBeforeTheErrorDisposesTheSourceAndNoFallbackRuns() {
        let scheduler = TestScheduler()
        let source = scheduler.hotStream("-a-b-#", frame: .milliseconds(100))
        let calls = Counter()
        let recorder = scheduler.start(subscribed: 0, disposed: 250) {
            source.asDataStream().recover { _ -> DataStream<String> in
                calls.increment()
                return .empty()
            }
        }
        XCTAssertEqual(recorder.events, [.data(100, "a")])
        XCTAssertEqual(source.subscriptions, [SubscriptionSpan(0, 250)])
        XCTAssertEqual(calls.value, 0)
    }

    // source:    -a-#
    // recover:   -a-#        the handler's own error, the source disposed
    func testAHandlerThrowingLaterOnFailsTheDownstreamWithItsError() {
        let scheduler = TestScheduler()
        let source = scheduler.hotStream("-a-#", frame: .milliseconds(100))
        let recorder = scheduler.start(subscribed: 0) {
            source.asDataStream().recover { _ -> DataStream<String> in throw TestError.other }
        }
        XCTAssertEqual(recorder.events, [.data(100, "a"), .error(300, TestError.other)])
        XCTAssertEqual(source.subscriptions, [SubscriptionSpan(0, 300)])
    }

    // source:    #           fails while being watched
    // fallback:  -x|
    // recover:   -x|
    func testAnErrorWhileBeingWatchedContinuesWithTheFallback() {
        let scheduler = TestScheduler()
        let fallback = scheduler.coldStream("-x|", frame: .milliseconds(100))
        let recorder = scheduler.start(subscribed: 0) { DataStream<String>.just(error: TestError.boom).recover { _ in fallback } }
        XCTAssertEqual(recorder.events, [.data(100, "x"), .end(200)])
        XCTAssertEqual(fallback.subscriptions, [SubscriptionSpan(0, 200)])
    }

    // source:    #
    // fallback:  -x-y-z|     disposed at 250
    func testDisposingAfterAnErrorWhileBeingWatchedDisposesTheFallback() {
        let scheduler = TestScheduler()
        let fallback = scheduler.coldStream("-x-y-z|", frame: .milliseconds(100))
        let recorder = scheduler.start(subscribed: 0, disposed: 250) {
            DataStream<String>.just(error: TestError.boom).recover { _ in fallback }
        }
        XCTAssertEqual(recorder.events, [.data(100, "x")])
        XCTAssertEqual(fallback.subscriptions, [SubscriptionSpan(0, 250)])
    }

    // source:    #
    // recover:   #           the handler's own error
    func testAHandlerThrowingWhileTheSourceIsWatchedFailsTheDownstreamWithItsError() {
        let scheduler = TestScheduler()
        let recorder = scheduler.start(subscribed: 0) {
            DataStream<String>.just(error: TestError.boom).recover { _ -> DataStream<String> in throw TestError.other }
        }
        XCTAssertEqual(recorder.events, [.error(0, TestError.other)])
    }

    // source:    -#
    // fallback:   1 2 3 …    endless, synchronous
    // take(2):   -(12|)      the take's disposal reaches the fallback while it is being set up
    func testStoppingDuringAnEndlessSynchronousFallbackAfterALaterErrorStopsIt() {
        let scheduler = TestScheduler()
        let source = scheduler.hotStream([Recorded<Int>.error(100, TestError.boom)])
        let recorder = scheduler.start(subscribed: 0) { source.asDataStream().recover { _ in DataStream.from(1...) }.take(2) }
        XCTAssertEqual(recorder.events, [.data(100, 1), .data(100, 2), .end(100)])
    }

    // source:    #
    // fallback:  1 2 3 …     endless, synchronous
    // take(2):   (12|)
    func testStoppingDuringAnEndlessSynchronousFallbackAfterAnErrorWhileBeingWatchedStopsIt() {
        let recorder = EventRecorder<Int>()
        DataStream<Int>.just(error: TestError.boom).recover { _ in DataStream.from(1...) }.take(2)
            .watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.data(1), .data(2), .end])
    }

    // source:    -a-#        a stream that does not stop its watchers: recover keeps a subscription
    // fallback:     -x-y-z|  disposed at 550
    func testOverAStreamThatDoesNotStopItsWatchersDisposalStillReachesTheFallback() {
        let scheduler = TestScheduler()
        let source = scheduler.hotStream("-a-#", frame: .milliseconds(100))
        let fallback = scheduler.coldStream("-x-y-z|", frame: .milliseconds(100))
        let recorder = scheduler.start(subscribed: 0, disposed: 550) { source.recover { _ in fallback } }
        XCTAssertEqual(recorder.events, [.data(100, "a"), .data(400, "x")])
        XCTAssertEqual(source.subscriptions, [SubscriptionSpan(0, 300)])
        XCTAssertEqual(fallback.subscriptions, [SubscriptionSpan(300, 550)])
    }
}
