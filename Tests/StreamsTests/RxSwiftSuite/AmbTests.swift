// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
import Streams
import StreamsTesting

/// RxSwift's own tests of `amb` (Tests/RxSwiftTests/Observable+AmbTests.swift), inputs, times,
/// expected events and subscription spans unchanged; `next` is `data`, `completed` is `end`.
final class AmbTests: XCTestCase {
    // RxSwift: testAmb_Never2
    func testTwoSilentSourcesStayWatchedAndSendNothing() {
        let scheduler = TestScheduler()
        let x1 = scheduler.hotStream([Recorded.data(150, 1)])
        let x2 = scheduler.hotStream([Recorded.data(150, 1)])
        let res = scheduler.start { x1.amb(x2) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(x1.subscriptions, [SubscriptionSpan(200, 1000)])
        XCTAssertEqual(x2.subscriptions, [SubscriptionSpan(200, 1000)])
    }

    // RxSwift: testAmb_Never3
    func testThreeSilentSourcesStayWatchedAndSendNothing() {
        let scheduler = TestScheduler()
        let x1 = scheduler.hotStream([Recorded.data(150, 1)])
        let x2 = scheduler.hotStream([Recorded.data(150, 1)])
        let x3 = scheduler.hotStream([Recorded.data(150, 1)])
        let res = scheduler.start { DataStream<Int>.amb([x1, x2, x3]) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(x1.subscriptions, [SubscriptionSpan(200, 1000)])
        XCTAssertEqual(x2.subscriptions, [SubscriptionSpan(200, 1000)])
        XCTAssertEqual(x3.subscriptions, [SubscriptionSpan(200, 1000)])
    }

    // RxSwift: testAmb_Never_Empty
    func testAnEndBeforeAnyValueWinsTheRace() {
        let scheduler = TestScheduler()
        let x1 = scheduler.hotStream([Recorded.data(150, 1)])
        let x2 = scheduler.hotStream([.data(150, 1), .end(225)])
        let res = scheduler.start { x1.amb(x2) }
        XCTAssertEqual(res.events, [.end(225)])
        XCTAssertEqual(x1.subscriptions, [SubscriptionSpan(200, 225)])
        XCTAssertEqual(x2.subscriptions, [SubscriptionSpan(200, 225)])
    }

    // RxSwift: testAmb_RegularShouldDisposeLoser
    func testTheLoserIsDisposedAtTheWinnersFirstValue() {
        let scheduler = TestScheduler()
        let x1 = scheduler.hotStream([.data(150, 1), .data(210, 2), .end(240)])
        let x2 = scheduler.hotStream([.data(150, 1), .data(220, 3), .end(250)])
        let res = scheduler.start { x1.amb(x2) }
        XCTAssertEqual(res.events, [.data(210, 2), .end(240)])
        XCTAssertEqual(x1.subscriptions, [SubscriptionSpan(200, 240)])
        XCTAssertEqual(x2.subscriptions, [SubscriptionSpan(200, 210)])
    }

    // RxSwift: testAmb_WinnerThrows
    func testTheWinnersErrorPassesOn() {
        let scheduler = TestScheduler()
        let x1 = scheduler.hotStream([.data(150, 1), .data(210, 2), .error(220, TestError.boom)])
        let x2 = scheduler.hotStream([.data(150, 1), .data(220, 3), .end(250)])
        let res = scheduler.start { x1.amb(x2) }
        XCTAssertEqual(res.events, [.data(210, 2), .error(220, TestError.boom)])
        XCTAssertEqual(x1.subscriptions, [SubscriptionSpan(200, 220)])
        XCTAssertEqual(x2.subscriptions, [SubscriptionSpan(200, 210)])
    }

    // RxSwift: testAmb_LoserThrows
    func testTheLosersLaterErrorIsNeverSeen() {
        let scheduler = TestScheduler()
        let x1 = scheduler.hotStream([.data(150, 1), .data(220, 2), .error(230, TestError.boom)])
        let x2 = scheduler.hotStream([.data(150, 1), .data(210, 3), .end(250)])
        let res = scheduler.start { x1.amb(x2) }
        XCTAssertEqual(res.events, [.data(210, 3), .end(250)])
        XCTAssertEqual(x1.subscriptions, [SubscriptionSpan(200, 210)])
        XCTAssertEqual(x2.subscriptions, [SubscriptionSpan(200, 250)])
    }

    // RxSwift: testAmb_ThrowsBeforeElectionLeft
    func testAnErrorOfTheLeftBeforeAnyValueWinsTheRace() {
        let scheduler = TestScheduler()
        let x1 = scheduler.hotStream([.data(150, 1), .error(210, TestError.boom)])
        let x2 = scheduler.hotStream([.data(150, 1), .data(220, 3), .end(250)])
        let res = scheduler.start { x1.amb(x2) }
        XCTAssertEqual(res.events, [.error(210, TestError.boom)])
        XCTAssertEqual(x1.subscriptions, [SubscriptionSpan(200, 210)])
        XCTAssertEqual(x2.subscriptions, [SubscriptionSpan(200, 210)])
    }

    // RxSwift: testAmb_ThrowsBeforeElectionRight
    func testAnErrorOfTheRightBeforeAnyValueWinsTheRace() {
        let scheduler = TestScheduler()
        let x1 = scheduler.hotStream([.data(150, 1), .data(220, 3), .end(250)])
        let x2 = scheduler.hotStream([.data(150, 1), .error(210, TestError.boom)])
        let res = scheduler.start { x1.amb(x2) }
        XCTAssertEqual(res.events, [.error(210, TestError.boom)])
        XCTAssertEqual(x1.subscriptions, [SubscriptionSpan(200, 210)])
        XCTAssertEqual(x2.subscriptions, [SubscriptionSpan(200, 210)])
    }

    // Not in RxSwift's suite: a source that wins while it is being watched keeps the later ones unwatched.
    func testASourceWinningWhileBeingWatchedLeavesTheLaterOnesUnwatched() {
        let scheduler = TestScheduler()
        let later = scheduler.hotStream([Recorded.data(300, 9)])
        let res = scheduler.start { DataStream<Int>.amb([DataStream.just(1), later]) }
        XCTAssertEqual(res.events, [.data(200, 1), .end(200)])
        XCTAssertEqual(later.subscriptions, [])
    }

    func testAmbOfNoSourcesEndsAtOnce() {
        let recorder = EventRecorder<Int>()
        DataStream<Int>.amb([]).watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.end])
    }
}
