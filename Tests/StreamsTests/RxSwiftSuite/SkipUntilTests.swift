// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import XCTest
import Streams
import StreamsTesting

/// RxSwift's own tests of `skipUntil` (Tests/RxSwiftTests/Observable+SkipUntilTests.swift), inputs,
/// times, expected events and subscription spans unchanged, except where Streams deliberately
/// differs: RxSwift swallows the source's end while the gate is shut (its watcher then waits
/// forever); Streams passes it on, as RxJS, RxJava and Combine's `drop(untilOutputFrom:)` do.
final class SkipUntilTests: XCTestCase {
    private func someData(_ scheduler: TestScheduler) -> HotStream<Int> {
        scheduler.hotStream([.data(150, 1), .data(210, 2), .data(220, 3), .data(230, 4), .data(240, 5), .end(250)])
    }

    // RxSwift: testSkipUntil_SomeData_Next
    func testValuesPassFromTheNotifiersFirstValueWhichDisposesIt() {
        let scheduler = TestScheduler()
        let l = someData(scheduler)
        let r = scheduler.hotStream([.data(150, 1), .data(225, 99), .end(230)])
        let res = scheduler.start { l.skipUntil(r) }
        XCTAssertEqual(res.events, [.data(230, 4), .data(240, 5), .end(250)])
        XCTAssertEqual(l.subscriptions, [SubscriptionSpan(200, 250)])
        XCTAssertEqual(r.subscriptions, [SubscriptionSpan(200, 225)])
    }

    // RxSwift: testSkipUntil_SomeData_Error
    func testAnErrorOfTheNotifierFailsTheResult() {
        let scheduler = TestScheduler()
        let l = someData(scheduler)
        let r = scheduler.hotStream([.data(150, 1), .error(225, TestError.boom)])
        let res = scheduler.start { l.skipUntil(r) }
        XCTAssertEqual(res.events, [.error(225, TestError.boom)])
        XCTAssertEqual(l.subscriptions, [SubscriptionSpan(200, 225)])
        XCTAssertEqual(r.subscriptions, [SubscriptionSpan(200, 225)])
    }

    // RxSwift: testSkipUntil_Error_SomeData
    func testAnErrorOfTheSourcePassesOnWhileTheGateIsShut() {
        let scheduler = TestScheduler()
        let l = scheduler.hotStream([.data(150, 1), .data(210, 2), .error(220, TestError.boom)])
        let r = scheduler.hotStream([.data(150, 1), .data(230, 2), .end(250)])
        let res = scheduler.start { l.skipUntil(r) }
        XCTAssertEqual(res.events, [.error(220, TestError.boom)])
        XCTAssertEqual(l.subscriptions, [SubscriptionSpan(200, 220)])
        XCTAssertEqual(r.subscriptions, [SubscriptionSpan(200, 220)])
    }

    // RxSwift: testSkipUntil_SomeData_Empty — RxSwift expects no events at all; Streams passes the end at 250.
    func testANotifierEndingWithoutAValueKeepsTheGateShutButTheSourcesEndPassesUnlikeRxSwift() {
        let scheduler = TestScheduler()
        let l = someData(scheduler)
        let r = scheduler.hotStream([.data(150, 1), .end(225)])
        let res = scheduler.start { l.skipUntil(r) }
        XCTAssertEqual(res.events, [.end(250)])
        XCTAssertEqual(l.subscriptions, [SubscriptionSpan(200, 250)])
        XCTAssertEqual(r.subscriptions, [SubscriptionSpan(200, 225)])
    }

    // RxSwift: testSkipUntil_Never_Next
    func testASilentSourceStaysWatchedAfterTheGateOpens() {
        let scheduler = TestScheduler()
        let l = scheduler.hotStream([Recorded.data(150, 1)])
        let r = scheduler.hotStream([.data(150, 1), .data(225, 2), .end(250)])
        let res = scheduler.start { l.skipUntil(r) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(l.subscriptions, [SubscriptionSpan(200, 1000)])
        XCTAssertEqual(r.subscriptions, [SubscriptionSpan(200, 225)])
    }

    // RxSwift: testSkipUntil_Never_Error1
    func testAnErrorOfTheNotifierFailsASilentSource() {
        let scheduler = TestScheduler()
        let l = scheduler.hotStream([Recorded.data(150, 1)])
        let r = scheduler.hotStream([.data(150, 1), .error(225, TestError.boom)])
        let res = scheduler.start { l.skipUntil(r) }
        XCTAssertEqual(res.events, [.error(225, TestError.boom)])
        XCTAssertEqual(l.subscriptions, [SubscriptionSpan(200, 225)])
        XCTAssertEqual(r.subscriptions, [SubscriptionSpan(200, 225)])
    }

    // RxSwift: testSkipUntil_SomeData_Error2 — RxSwift expects no events; Streams passes the end at 250.
    func testTheSourcesEndBeforeTheNotifiersErrorEndsTheResultUnlikeRxSwift() {
        let scheduler = TestScheduler()
        let l = someData(scheduler)
        let r = scheduler.hotStream([.data(150, 1), .error(300, TestError.boom)])
        let res = scheduler.start { l.skipUntil(r) }
        XCTAssertEqual(res.events, [.end(250)])
        XCTAssertEqual(l.subscriptions, [SubscriptionSpan(200, 250)])
        XCTAssertEqual(r.subscriptions, [SubscriptionSpan(200, 250)])
    }

    // RxSwift: testSkipUntil_SomeData_Never — RxSwift expects no events; Streams passes the end at 250.
    func testASilentNotifierDropsEveryValueButTheEndPassesUnlikeRxSwift() {
        let scheduler = TestScheduler()
        let l = someData(scheduler)
        let r = scheduler.hotStream([Recorded.data(150, 1)])
        let res = scheduler.start { l.skipUntil(r) }
        XCTAssertEqual(res.events, [.end(250)])
        XCTAssertEqual(l.subscriptions, [SubscriptionSpan(200, 250)])
        XCTAssertEqual(r.subscriptions, [SubscriptionSpan(200, 250)])
    }

    // RxSwift: testSkipUntil_Never_Empty
    func testANotifierEndingWithoutAValueLeavesASilentSourceWatched() {
        let scheduler = TestScheduler()
        let l = scheduler.hotStream([Recorded.data(150, 1)])
        let r = scheduler.hotStream([.data(150, 1), .end(225)])
        let res = scheduler.start { l.skipUntil(r) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(l.subscriptions, [SubscriptionSpan(200, 1000)])
        XCTAssertEqual(r.subscriptions, [SubscriptionSpan(200, 225)])
    }

    // RxSwift: testSkipUntil_Never_Never
    func testTwoSilentStreamsStayWatchedUntilDisposed() {
        let scheduler = TestScheduler()
        let l = scheduler.hotStream([Recorded.data(150, 1)])
        let r = scheduler.hotStream([Recorded.data(150, 1)])
        let res = scheduler.start { l.skipUntil(r) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(l.subscriptions, [SubscriptionSpan(200, 1000)])
        XCTAssertEqual(r.subscriptions, [SubscriptionSpan(200, 1000)])
    }

    // RxSwift: testSkipUntil_HasCompletedCausesDisposal — RxSwift expects no events; Streams passes the end.
    func testTheSourcesEndDisposesTheNotifier() {
        let scheduler = TestScheduler()
        let disposed = StreamServiceConcurrency.Locked(false)
        let l = someData(scheduler)
        let r = DataStream<Int> { _ in Disposable { disposed.withLock { $0 = true } } }
        let res = scheduler.start { l.skipUntil(r) }
        XCTAssertEqual(res.events, [.end(250)])
        XCTAssertTrue(disposed.withLock { $0 })
    }
}
