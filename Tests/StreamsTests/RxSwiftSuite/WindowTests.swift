// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
import Streams
import StreamsTesting

/// RxSwift's own tests of `window(timeSpan:count:scheduler:)` (Tests/RxSwiftTests/Observable+WindowTests.swift),
/// inputs, times, expected events and subscription spans unchanged. RxSwift's `.seconds(70)` on its
/// `TestScheduler` is 70 virtual ticks; Streams' `TestScheduler` counts milliseconds, so it is `.milliseconds(70)`.
final class WindowTests: XCTestCase {
    private let values: [Recorded<Int>] = [
        .data(205, 1), .data(210, 2), .data(240, 3), .data(280, 4), .data(320, 5),
        .data(350, 6), .data(370, 7), .data(420, 8), .data(470, 9),
    ]


    private let expected: [Recorded<String>] = [
        .data(205, "0 1"), .data(210, "0 2"), .data(240, "0 3"), .data(280, "1 4"), .data(320, "2 5"),
        .data(350, "2 6"), .data(370, "2 7"), .data(420, "3 8"), .data(470, "4 9"),
    ]

    // RxSwift: testWindowWithTimeOrCount_Basic
    func testAWindowClosesAtItsCountOrItsTimeSpanWhicheverComesFirst() {
        let scheduler = TestScheduler()
        let xs = scheduler.hotStream(values + [.end(600)])
        let res = scheduler.start { labelled(xs, scheduler) }
        XCTAssertEqual(res.events, expected + [.end(600)])
        XCTAssertEqual(xs.subscriptions, [SubscriptionSpan(200, 600)])
    }

    // RxSwift: testWindowWithTimeOrCount_Error
    func testTheSourcesErrorFailsTheOpenWindowAndTheWindows() {
        let scheduler = TestScheduler()
        let xs = scheduler.hotStream(values + [.error(600, TestError.boom)])
        let res = scheduler.start { labelled(xs, scheduler) }
        XCTAssertEqual(res.events, expected + [.error(600, TestError.boom)])
        XCTAssertEqual(xs.subscriptions, [SubscriptionSpan(200, 600)])
    }

    // RxSwift: testWindowWithTimeOrCount_Disposed
    func testDisposingTheWindowsDisposesTheSource() {
        let scheduler = TestScheduler()
        let xs = scheduler.hotStream([Recorded.data(105, 0)] + values + [.end(600)])
        let res = scheduler.start(disposed: 370) { labelled(xs, scheduler) }
        XCTAssertEqual(res.events, Array(expected.prefix(7)))
        XCTAssertEqual(xs.subscriptions, [SubscriptionSpan(200, 370)])
    }

    // Not in RxSwift's suite: the windows themselves, opened at the subscription and at each close.
    func testTheFirstWindowOpensAtTheSubscriptionAndEachCloseOpensTheNext() {
        let scheduler = TestScheduler()
        let xs = scheduler.hotStream([.data(210, 1), .end(300)])
        let res = scheduler.start { xs.window(timeSpan: .milliseconds(40), scheduler: scheduler).map { _ in "W" } }
        XCTAssertEqual(res.events, [.data(200, "W"), .data(240, "W"), .data(280, "W"), .end(300)])
    }

    func testWindowByCountSplitsTheValuesIntoConsecutiveWindows() {
        let recorder = EventRecorder<[Int]>()
        DataStream.just(data: [1, 2, 3, 4, 5]).window(count: 2).concatMap { $0.toArray() }.watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.data([1, 2]), .data([3, 4]), .data([5]), .end])
    }

    func testWindowByCountOfAnEmptySourceGivesOneEmptyWindow() {
        let recorder = EventRecorder<[Int]>()
        DataStream<Int>.empty().window(count: 2).concatMap { $0.toArray() }.watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.data([]), .end])
    }

    func testAZeroTimeSpanFailsWithInvalidDurationError() {
        let scheduler = TestScheduler()
        let recorder = EventRecorder<DataStream<Int>>()
        DataStream<Int>.never().window(timeSpan: .zero, scheduler: scheduler).watch(using: recorder.watcher)
        XCTAssertEqual(recorder.error as? InvalidDurationError, InvalidDurationError(operatorName: "window", duration: .zero))
    }
}

/// RxSwift's `window.enumerated().map { i, o in o.map { "\(i) \($0)" } }.merge()`.
private func labelled(_ source: HotStream<Int>, _ scheduler: TestScheduler) -> DataStream<String> {
    source.window(timeSpan: .milliseconds(70), count: 3, scheduler: scheduler)
        .enumerated()
        .map { window in window.element.map { "\(window.index) \($0)" } }
        .merge()
}
