// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
import Streams
import StreamsTesting

/// RxSwift's own tests where Streams deliberately behaves otherwise (the guide "Coming from
/// RxSwift, Combine or ReactiveCocoa" gives the reasons): inputs and times as RxSwift wrote them,
/// each test asserting Streams' behaviour and naming what RxSwift expects instead.
final class ZipAndCombineLatestCompletionTests: XCTestCase {
    // RxSwift: testZip_NeverEmpty expects no events and `n` watched until 1000. Streams ends at 210:
    // `e` ended with nothing to pair, so no pair can ever form (RxJS, RxJava).
    func testZipEndsWhenASourceEndsWithNothingLeftToPairUnlikeRxSwift() {
        let scheduler = TestScheduler()
        let n = scheduler.hotStream([Recorded.data(150, 1)])
        let e = scheduler.hotStream([.data(150, 1), .end(210)])
        let res = scheduler.start { DataStream.zip(n, e).map { $0 + $1 } }
        XCTAssertEqual(res.events, [.end(210)])
        XCTAssertEqual(n.subscriptions, [SubscriptionSpan(200, 210)])
        XCTAssertEqual(e.subscriptions, [SubscriptionSpan(200, 210)])
    }

    // RxSwift: testZip_LeftCompletesFirst expects the end at 225, when `o2` ends too. Streams ends at
    // 220: `o1` ended and its only value is paired.
    func testZipEndsWhenTheEndedSourcesValuesArePairedUnlikeRxSwift() {
        let scheduler = TestScheduler()
        let o1 = scheduler.hotStream([.data(150, 1), .data(210, 2), .end(220)])
        let o2 = scheduler.hotStream([.data(150, 1), .data(215, 4), .end(225)])
        let res = scheduler.start { DataStream.zip(o1, o2).map { $0 + $1 } }
        XCTAssertEqual(res.events, [.data(215, 2 + 4), .end(220)])
        XCTAssertEqual(o1.subscriptions, [SubscriptionSpan(200, 220)])
        XCTAssertEqual(o2.subscriptions, [SubscriptionSpan(200, 220)])
    }

    // RxSwift: testCombineLatest_NeverEmpty expects no events and `e0` watched until 1000. Streams
    // ends at 210: `e1` ended without a value, so nothing can ever be combined.
    func testCombineLatestEndsWhenASourceEndsWithoutAValueUnlikeRxSwift() {
        let scheduler = TestScheduler()
        let e0 = scheduler.hotStream([Recorded.data(150, 1)])
        let e1 = scheduler.hotStream([.data(150, 1), .end(210)])
        let res = scheduler.start { DataStream.combineLatest(e0, e1).map { $0 + $1 } }
        XCTAssertEqual(res.events, [.end(210)])
        XCTAssertEqual(e0.subscriptions, [SubscriptionSpan(200, 210)])
        XCTAssertEqual(e1.subscriptions, [SubscriptionSpan(200, 210)])
    }
}

/// RxSwift's `retry(n)` tests (Tests/RxSwiftTests/Observable+CatchTests.swift). RxSwift's `retry(3)`
/// means 3 subscriptions; Streams' `retry(3)` means 3 re-watches, 4 subscriptions (the StreamLibrary
/// design, RxJava, Combine's `retry(_:)`, ReactiveSwift's `retry(upTo:)`), so RxSwift's `retry(3)` is
/// Streams' `retry(2)`.
final class RetryCountTests: XCTestCase {
    private func failing(_ scheduler: TestScheduler) -> ColdStream<Int> {
        scheduler.coldStream([.data(5, 1), .data(10, 2), .data(15, 3), .error(20, TestError.boom)])
    }

    // RxSwift: testRetryCount_Basic, with RxSwift's retry(3) written retry(2): its events and spans exactly.
    func testRetryTwoIsRxSwiftsRetryThree() {
        let scheduler = TestScheduler()
        let xs = failing(scheduler)
        let res = scheduler.start { xs.retry(2) }
        XCTAssertEqual(res.events, [
            .data(205, 1), .data(210, 2), .data(215, 3), .data(225, 1), .data(230, 2), .data(235, 3),
            .data(245, 1), .data(250, 2), .data(255, 3), .error(260, TestError.boom),
        ])
        XCTAssertEqual(xs.subscriptions, [SubscriptionSpan(200, 220), SubscriptionSpan(220, 240), SubscriptionSpan(240, 260)])
    }

    // RxSwift: testRetryCount_Basic as written: Streams' retry(3) watches a fourth time, failing at 280.
    func testRetryThreeWatchesFourTimesUnlikeRxSwift() {
        let scheduler = TestScheduler()
        let xs = failing(scheduler)
        let res = scheduler.start { xs.retry(3) }
        XCTAssertEqual(res.events.last, .error(280, TestError.boom))
        XCTAssertEqual(xs.subscriptions, [
            SubscriptionSpan(200, 220), SubscriptionSpan(220, 240), SubscriptionSpan(240, 260), SubscriptionSpan(260, 280),
        ])
    }

    // RxSwift: testRetryCount_Dispose (the same in both libraries).
    func testDisposingDuringARetryStopsIt() {
        let scheduler = TestScheduler()
        let xs = failing(scheduler)
        let res = scheduler.start(disposed: 231) { xs.retry(3) }
        XCTAssertEqual(res.events, [.data(205, 1), .data(210, 2), .data(215, 3), .data(225, 1), .data(230, 2)])
        XCTAssertEqual(xs.subscriptions, [SubscriptionSpan(200, 220), SubscriptionSpan(220, 231)])
    }

    // RxSwift: testRetryCount_Completed (the same in both libraries).
    func testASourceThatEndsIsNotRetried() {
        let scheduler = TestScheduler()
        let xs = scheduler.coldStream([.data(100, 1), .data(150, 2), .data(200, 3), .end(250)])
        let res = scheduler.start { xs.retry(3) }
        XCTAssertEqual(res.events, [.data(300, 1), .data(350, 2), .data(400, 3), .end(450)])
        XCTAssertEqual(xs.subscriptions, [SubscriptionSpan(200, 450)])
    }
}

/// RxSwift's `buffer(timeSpan:count:scheduler:)` tests (Tests/RxSwiftTests/Observable+BufferTests.swift).
/// Streams sends no final empty array at the end (RxJava likewise); RxSwift does. `.seconds(70)` on
/// RxSwift's `TestScheduler` is 70 ticks, Streams' `.milliseconds(70)`.
final class BufferTimeOrCountTests: XCTestCase {
    private let values: [Recorded<Int>] = [
        .data(205, 1), .data(210, 2), .data(240, 3), .data(280, 4), .data(320, 5),
        .data(350, 6), .data(370, 7), .data(420, 8), .data(470, 9),
    ]
    private let buffers: [Recorded<[Int]>] = [
        .data(240, [1, 2, 3]), .data(310, [4]), .data(370, [5, 6, 7]), .data(440, [8]), .data(510, [9]), .data(580, []),
    ]

    // RxSwift: testBufferWithTimeOrCount_Basic expects one more `.next(600, [])` before the end.
    func testBuffersCloseAtTheirCountOrTimeSpanAndTheEndSendsNoEmptyArrayUnlikeRxSwift() {
        let scheduler = TestScheduler()
        let xs = scheduler.hotStream(values + [.end(600)])
        let res = scheduler.start { xs.buffer(timeSpan: .milliseconds(70), count: 3, scheduler: scheduler) }
        XCTAssertEqual(res.events, buffers + [.end(600)])
        XCTAssertEqual(xs.subscriptions, [SubscriptionSpan(200, 600)])
    }

    // RxSwift: testBufferWithTimeOrCount_Error (the same in both libraries).
    func testAnErrorDropsTheOpenBuffer() {
        let scheduler = TestScheduler()
        let xs = scheduler.hotStream(values + [.error(600, TestError.boom)])
        let res = scheduler.start { xs.buffer(timeSpan: .milliseconds(70), count: 3, scheduler: scheduler) }
        XCTAssertEqual(res.events, buffers + [.error(600, TestError.boom)])
        XCTAssertEqual(xs.subscriptions, [SubscriptionSpan(200, 600)])
    }

    // RxSwift: testBufferWithTimeOrCount_Disposed (the same in both libraries).
    func testDisposingStopsTheBuffers() {
        let scheduler = TestScheduler()
        let xs = scheduler.hotStream(values + [.end(600)])
        let res = scheduler.start(disposed: 370) { xs.buffer(timeSpan: .milliseconds(70), count: 3, scheduler: scheduler) }
        XCTAssertEqual(res.events, Array(buffers.prefix(3)))
        XCTAssertEqual(xs.subscriptions, [SubscriptionSpan(200, 370)])
    }
}

/// RxSwift's `retry(when:)` tests (Tests/RxSwiftTests/Observable+RetryWhenTests.swift). Streams watches
/// the notifier once, from the subscription (as RxJS); RxSwift watches it only from the first error,
/// so a notifier event before any error is lost there and acts here.
final class RetryWhenNotifierTests: XCTestCase {
    // RxSwift: testRetryWhen_Never expects `.completed(250)` (the source's end): its notifier, ending at
    // 210, is not watched yet. Streams watches it from 200, so its end at 210 ends the result.
    func testTheNotifiersEndBeforeAnyErrorEndsTheResultUnlikeRxSwift() {
        let scheduler = TestScheduler()
        let xs = scheduler.hotStream([.data(150, 1), .end(250)])
        let empty = scheduler.hotStream([.data(150, 1), .end(210)])
        let res = scheduler.start(disposed: 300) { xs.retry { _ in empty } }
        XCTAssertEqual(res.events, [.end(210)])
        XCTAssertEqual(xs.subscriptions, [SubscriptionSpan(200, 210)])
    }

    // RxSwift: testRetryWhen_ObservableNever (the same in both libraries).
    func testASilentNotifierLeavesTheResultWaitingAfterAnError() {
        let scheduler = TestScheduler()
        let xs = scheduler.hotStream([.data(150, 1), .data(210, 2), .data(220, 3), .data(230, 4), .data(240, 5), .error(250, TestError.boom)])
        let never = scheduler.hotStream([Recorded.data(150, 1)])
        let res = scheduler.start { xs.retry { _ in never } }
        XCTAssertEqual(res.events, [.data(210, 2), .data(220, 3), .data(230, 4), .data(240, 5)])
        XCTAssertEqual(xs.subscriptions, [SubscriptionSpan(200, 250)])
    }

    // RxSwift: testRetryWhen_ObservableEmpty (the same in both libraries: the hot notifier ended at 0,
    // before anyone watched it, and sends a late watcher nothing).
    func testANotifierThatEndedBeforeTheSubscriptionChangesNothing() {
        let scheduler = TestScheduler()
        let xs = scheduler.coldStream([.data(100, 1), .data(150, 2), .data(200, 3), .end(250)])
        let empty = scheduler.hotStream([.data(150, 0), .end(0)])
        let res = scheduler.start { xs.retry { _ in empty } }
        XCTAssertEqual(res.events, [.data(300, 1), .data(350, 2), .data(400, 3), .end(450)])
        XCTAssertEqual(xs.subscriptions, [SubscriptionSpan(200, 450)])
    }
}
