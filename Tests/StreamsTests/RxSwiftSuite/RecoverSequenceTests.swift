// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
import Streams
import StreamsTesting

/// RxSwift's own tests of `catch(sequence:)` (Tests/RxSwiftTests/Observable+CatchTests.swift,
/// "catch enumerable"), inputs, times, expected events and subscription spans unchanged;
/// `Observable.catch(sequence:)` is `DataStream.recover(sequence:)`.
final class RecoverSequenceTests: XCTestCase {
    // RxSwift: testCatchSequenceOf_IEofIO
    func testEachErrorSwitchesToTheNextColdSource() {
        let scheduler = TestScheduler()
        let xs1 = scheduler.coldStream([.data(10, 1), .data(20, 2), .data(30, 3), .error(40, TestError.boom)])
        let xs2 = scheduler.coldStream([.data(10, 4), .data(20, 5), .error(30, TestError.boom)])
        let xs3 = scheduler.coldStream([.data(10, 6), .data(20, 7), .data(30, 8), .data(40, 9), .end(50)])
        let res = scheduler.start { DataStream<Int>.recover(sequence: [xs1, xs2, xs3]) }
        XCTAssertEqual(res.events, [
            .data(210, 1), .data(220, 2), .data(230, 3), .data(250, 4), .data(260, 5),
            .data(280, 6), .data(290, 7), .data(300, 8), .data(310, 9), .end(320),
        ])
        XCTAssertEqual(xs1.subscriptions, [SubscriptionSpan(200, 240)])
        XCTAssertEqual(xs2.subscriptions, [SubscriptionSpan(240, 270)])
        XCTAssertEqual(xs3.subscriptions, [SubscriptionSpan(270, 320)])
    }

    // RxSwift: testCatchAnySequence_NoErrors
    func testWithoutAnErrorTheFallbacksAreNeverWatched() {
        let scheduler = TestScheduler()
        let xs1 = scheduler.hotStream([.data(150, 1), .data(210, 2), .data(220, 3), .end(230)])
        let xs2 = scheduler.hotStream([.data(240, 4), .end(250)])
        let res = scheduler.start { DataStream<Int>.recover(sequence: [xs1, xs2]) }
        XCTAssertEqual(res.events, [.data(210, 2), .data(220, 3), .end(230)])
        XCTAssertEqual(xs1.subscriptions, [SubscriptionSpan(200, 230)])
        XCTAssertEqual(xs2.subscriptions, [])
    }

    // RxSwift: testCatchAnySequence_Never
    func testASilentFirstSourceKeepsTheFallbacksUnwatched() {
        let scheduler = TestScheduler()
        let xs1 = scheduler.hotStream([Recorded.data(150, 1)])
        let xs2 = scheduler.hotStream([.data(240, 4), .end(250)])
        let res = scheduler.start { DataStream<Int>.recover(sequence: [xs1, xs2]) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs1.subscriptions, [SubscriptionSpan(200, 1000)])
        XCTAssertEqual(xs2.subscriptions, [])
    }

    // RxSwift: testCatchAnySequence_Empty
    func testAnEndWithoutValuesEndsTheResult() {
        let scheduler = TestScheduler()
        let xs1 = scheduler.hotStream([.data(150, 1), .end(230)])
        let xs2 = scheduler.hotStream([.data(240, 4), .end(250)])
        let res = scheduler.start { DataStream<Int>.recover(sequence: [xs1, xs2]) }
        XCTAssertEqual(res.events, [.end(230)])
        XCTAssertEqual(xs1.subscriptions, [SubscriptionSpan(200, 230)])
        XCTAssertEqual(xs2.subscriptions, [])
    }

    // RxSwift: testCatchSequenceOf_Error
    func testAnErrorSwitchesToTheNextHotSource() {
        let scheduler = TestScheduler()
        let xs1 = scheduler.hotStream([.data(150, 1), .data(210, 2), .data(220, 3), .error(230, TestError.boom)])
        let xs2 = scheduler.hotStream([.data(240, 4), .end(250)])
        let res = scheduler.start { DataStream<Int>.recover(sequence: [xs1, xs2]) }
        XCTAssertEqual(res.events, [.data(210, 2), .data(220, 3), .data(240, 4), .end(250)])
        XCTAssertEqual(xs1.subscriptions, [SubscriptionSpan(200, 230)])
        XCTAssertEqual(xs2.subscriptions, [SubscriptionSpan(230, 250)])
    }

    // RxSwift: testCatchSequenceOf_ErrorNever
    func testASilentFallbackStaysWatchedUntilDisposed() {
        let scheduler = TestScheduler()
        let xs1 = scheduler.hotStream([.data(150, 1), .data(210, 2), .data(220, 3), .error(230, TestError.boom)])
        let xs2 = scheduler.hotStream([Recorded.data(150, 1)])
        let res = scheduler.start { DataStream<Int>.recover(sequence: [xs1, xs2]) }
        XCTAssertEqual(res.events, [.data(210, 2), .data(220, 3)])
        XCTAssertEqual(xs1.subscriptions, [SubscriptionSpan(200, 230)])
        XCTAssertEqual(xs2.subscriptions, [SubscriptionSpan(230, 1000)])
    }

    // RxSwift: testCatchSequenceOf_ErrorError
    func testTheLastSourcesErrorIsDelivered() {
        let scheduler = TestScheduler()
        let xs1 = scheduler.hotStream([.data(150, 1), .data(210, 2), .data(220, 3), .error(230, TestError.boom)])
        let xs2 = scheduler.hotStream([.data(150, 1), .error(250, TestError.boom)])
        let res = scheduler.start { DataStream<Int>.recover(sequence: [xs1, xs2]) }
        XCTAssertEqual(res.events, [.data(210, 2), .data(220, 3), .error(250, TestError.boom)])
        XCTAssertEqual(xs1.subscriptions, [SubscriptionSpan(200, 230)])
        XCTAssertEqual(xs2.subscriptions, [SubscriptionSpan(230, 250)])
    }

    // RxSwift: testCatchSequenceOf_Multiple
    func testThreeSourcesFollowEachOtherAtTheirErrors() {
        let scheduler = TestScheduler()
        let xs1 = scheduler.hotStream([.data(150, 1), .data(210, 2), .error(215, TestError.boom)])
        let xs2 = scheduler.hotStream([.data(220, 3), .error(225, TestError.boom)])
        let xs3 = scheduler.hotStream([.data(230, 4), .end(235)])
        let res = scheduler.start { DataStream<Int>.recover(sequence: [xs1, xs2, xs3]) }
        XCTAssertEqual(res.events, [.data(210, 2), .data(220, 3), .data(230, 4), .end(235)])
        XCTAssertEqual(xs1.subscriptions, [SubscriptionSpan(200, 215)])
        XCTAssertEqual(xs2.subscriptions, [SubscriptionSpan(215, 225)])
        XCTAssertEqual(xs3.subscriptions, [SubscriptionSpan(225, 235)])
    }

    // Not in RxSwift's suite.
    func testRecoverTryingIsTheSequenceStartingWithTheSource() {
        let recorder = EventRecorder<Int>()
        DataStream<Int>.just(error: TestError.boom)
            .recover(trying: [DataStream<Int>.just(error: TestError.other), DataStream.just(3)])
            .watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.data(3), .end])
    }

    func testRecoverOfNoSourcesEndsAtOnce() {
        let recorder = EventRecorder<Int>()
        DataStream<Int>.recover(sequence: []).watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.end])
    }
}
