// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Streams
import StreamsTesting
import XCTest

private struct Failure: Error, Equatable {}

final class SwitchToLatestTests: XCTestCase {
    func testOnlyTheNewestInnerStreamIsFollowedAndTheOlderIsDisposed() {
        let scheduler = TestScheduler()
        let a = scheduler.coldStream("-1-2-3-|")
        let b = scheduler.coldStream("-4-5-|")
        let outer = scheduler.hotStream([.data(10, a), .data(50, b), .end(60)])
        let recorder = scheduler.start(subscribed: 0) { outer.switchToLatest() }
        XCTAssertEqual(recorder.diagram(), "--1-2-4-5-|")
        XCTAssertEqual(a.subscriptions, [SubscriptionSpan(10, 50)])
        XCTAssertEqual(b.subscriptions, [SubscriptionSpan(50, 100)])
    }
}

final class FlattenTests: XCTestCase {
    func testMergeInterleavesInnerStreamsAsTheirValuesCome() {
        let scheduler = TestScheduler()
        let a = scheduler.coldStream("-a---b|")
        let b = scheduler.coldStream("-c-d|")
        let outer = scheduler.hotStream([.data(10, a), .data(30, b), .end(40)])
        let recorder = scheduler.start(subscribed: 0) { outer.merge() }
        XCTAssertEqual(recorder.events, [.data(20, "a"), .data(40, "c"), .data(60, "b"), .data(60, "d"), .end(70)])
    }

    func testMergeWithALimitQueuesTheInnerStreamsBeyondIt() {
        let scheduler = TestScheduler()
        let a = scheduler.coldStream("-a-|")
        let b = scheduler.coldStream("-b|")
        let outer = scheduler.hotStream([.data(10, a), .data(20, b), .end(20)])
        let recorder = scheduler.start(subscribed: 0) { outer.merge(maxConcurrent: 1) }
        XCTAssertEqual(recorder.diagram(), "--a--b|")
        XCTAssertEqual(b.subscriptions, [SubscriptionSpan(40, 60)])
    }

    func testConcatWatchesEachInnerStreamAfterThePreviousEnds() {
        let stream = DataStream.just(data: [DataStream.just(data: [1, 2]), DataStream.just(data: [3])]).concat()
        let recorder = EventRecorder<Int>()
        recorder.watch(stream)
        XCTAssertEqual(recorder.events, [.data(1), .data(2), .data(3), .end])
    }
}

final class RetryWhenTests: XCTestCase {
    func testEachNotificationResubscribesAndTheNotifiersEndEndsTheResultAtOnce() {
        let scheduler = TestScheduler()
        let source = scheduler.coldStream("-a-#")
        let recorder = scheduler.start(subscribed: 0) {
            source.retry { errors in errors.delay(.milliseconds(20), scheduler: scheduler).take(2) }
        }
        // take(2) ends right after its second value: the attempt that value started is disposed at once.
        XCTAssertEqual(recorder.diagram(), "-a----a---|")
        XCTAssertEqual(source.subscriptions, [SubscriptionSpan(0, 30), SubscriptionSpan(50, 80), SubscriptionSpan(100, 100)])
    }

    func testTheNotifiersErrorFailsTheResult() {
        let recorder = EventRecorder<Int>()
        recorder.watch(DataStream<Int>.just(error: Failure()).retry { errors in
            errors.redirect { error in DataStream<Int>.just(error: error) }
        })
        XCTAssertEqual(recorder.events, [.error(Failure())])
    }

    func testASynchronousFailureRetriedManyTimesDoesNotRecurse() {
        let recorder = EventRecorder<Int>()
        recorder.watch(DataStream<Int>.just(error: Failure()).retry { errors in errors.take(50_000) })
        XCTAssertEqual(recorder.events, [.end])
    }
}

final class TimeoutFallbackTests: XCTestCase {
    func testATimeoutSwitchesToTheFallbackAndDisposesTheSource() {
        let scheduler = TestScheduler()
        let source = scheduler.coldStream("-a-b-----c|")
        let fallback = scheduler.coldStream("-x-y|")
        let recorder = scheduler.start(subscribed: 0) {
            source.timeout(.milliseconds(40), scheduler: scheduler, fallback: fallback)
        }
        XCTAssertEqual(recorder.diagram(), "-a-b----x-y|")
        XCTAssertEqual(source.subscriptions, [SubscriptionSpan(0, 70)])
        XCTAssertEqual(fallback.subscriptions, [SubscriptionSpan(70, 110)])
    }

    func testASourceErrorIsNotReplacedByTheFallback() {
        let scheduler = TestScheduler()
        let recorder = scheduler.start(subscribed: 0) {
            scheduler.coldStream("-a#").timeout(.milliseconds(40), scheduler: scheduler, fallback: DataStream.just("x"))
        }
        XCTAssertEqual(recorder.diagram(), "-a#")
    }
}

final class JustEventTests: XCTestCase {
    func testEachEventKindBecomesItsStream() {
        let data = EventRecorder<Int>(), failure = EventRecorder<Int>(), end = EventRecorder<Int>()
        data.watch(DataStream.just(event: .data(1)))
        failure.watch(DataStream<Int>.just(event: .error(Failure())))
        end.watch(DataStream<Int>.just(event: .end))
        XCTAssertEqual(data.events, [.data(1), .end])
        XCTAssertEqual(failure.events, [.error(Failure())])
        XCTAssertEqual(end.events, [.end])
    }
}
