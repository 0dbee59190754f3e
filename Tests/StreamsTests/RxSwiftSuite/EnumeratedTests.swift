// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
import Streams
import StreamsTesting

/// RxSwift's own tests of `enumerated` (Tests/RxSwiftTests/Observable+EnumeratedTests.swift), inputs,
/// times, expected events and subscription spans unchanged. A tuple is not `Equatable`, so the
/// recorded pairs are compared through `Pair`, as RxSwift compares them with its own function.
final class EnumeratedTests: XCTestCase {

    // RxSwift: test_Infinite
    func testEachValueIsPairedWithItsPosition() {
        let scheduler = TestScheduler()
        let xs = scheduler.hotStream([.data(210, "a"), .data(220, "b"), .data(280, "c")])
        let res = scheduler.start { pairs(xs) }
        XCTAssertEqual(res.events, [
            .data(210, Pair(index: 0, element: "a")), .data(220, Pair(index: 1, element: "b")), .data(280, Pair(index: 2, element: "c")),
        ])
        XCTAssertEqual(xs.subscriptions, [SubscriptionSpan(200, 1000)])
    }

    // RxSwift: test_Completed
    func testTheEndPassesOn() {
        let scheduler = TestScheduler()
        let xs = scheduler.hotStream([.data(210, "a"), .data(220, "b"), .data(280, "c"), .end(300)])
        let res = scheduler.start { pairs(xs) }
        XCTAssertEqual(res.events, [
            .data(210, Pair(index: 0, element: "a")), .data(220, Pair(index: 1, element: "b")), .data(280, Pair(index: 2, element: "c")),
            .end(300),
        ])
        XCTAssertEqual(xs.subscriptions, [SubscriptionSpan(200, 300)])
    }

    // RxSwift: test_Error
    func testAnErrorPassesOn() {
        let scheduler = TestScheduler()
        let xs = scheduler.hotStream([.data(210, "a"), .data(220, "b"), .data(280, "c"), .error(300, TestError.boom)])
        let res = scheduler.start { pairs(xs) }
        XCTAssertEqual(res.events, [
            .data(210, Pair(index: 0, element: "a")), .data(220, Pair(index: 1, element: "b")), .data(280, Pair(index: 2, element: "c")),
            .error(300, TestError.boom),
        ])
        XCTAssertEqual(xs.subscriptions, [SubscriptionSpan(200, 300)])
    }

    // Not in RxSwift's suite.
    func testEachSubscriptionCountsFromZero() {
        let source = DataStream.just(data: ["a", "b"]).enumerated().map { "\($0.index)\($0.element)" }
        let first = EventRecorder<String>(), second = EventRecorder<String>()
        source.watch(using: first.watcher)
        source.watch(using: second.watcher)
        XCTAssertEqual(first.values, ["0a", "1b"])
        XCTAssertEqual(second.values, ["0a", "1b"])
    }
}

private struct Pair: Equatable, Sendable {
    let index: Int
    let element: String
}

private func pairs(_ source: HotStream<String>) -> DataStream<Pair> {
    source.enumerated().map { Pair(index: $0.index, element: $0.element) }
}
