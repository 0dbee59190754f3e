// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
import Streams
import StreamsTesting

/// RxSwift's own tests of `skip(while:)` (Tests/RxSwiftTests/Observable+SkipWhileTests.swift), inputs,
/// times, expected events, subscription spans and predicate call counts unchanged.
final class SkipWhileTests: XCTestCase {
    private let values: [Recorded<Int>] = [
        .data(90, -1), .data(110, -1), .data(210, 2), .data(260, 5), .data(290, 13), .data(320, 3),
        .data(350, 7), .data(390, 4), .data(410, 17), .data(450, 8), .data(500, 23),
    ]

    // RxSwift: testSkipWhile_Complete_Before
    func testAnEndWhileSkippingEndsTheResult() {
        let scheduler = TestScheduler()
        let xs = scheduler.hotStream(Array(values.prefix(6)) + [.end(330)] + Array(values.suffix(5)) + [.end(600)])
        let invoked = Counter()
        let res = scheduler.start { xs.skipWhile { invoked.increment(); return isPrime($0) } }
        XCTAssertEqual(res.events, [.end(330)])
        XCTAssertEqual(xs.subscriptions, [SubscriptionSpan(200, 330)])
        XCTAssertEqual(invoked.value, 4)
    }

    // RxSwift: testSkipWhile_Complete_After
    func testTheFirstRefusedValueAndEverythingAfterItPass() {
        let scheduler = TestScheduler()
        let xs = scheduler.hotStream(values + [.end(600)])
        let invoked = Counter()
        let res = scheduler.start { xs.skipWhile { invoked.increment(); return isPrime($0) } }
        XCTAssertEqual(res.events, [.data(390, 4), .data(410, 17), .data(450, 8), .data(500, 23), .end(600)])
        XCTAssertEqual(xs.subscriptions, [SubscriptionSpan(200, 600)])
        XCTAssertEqual(invoked.value, 6)
    }

    // RxSwift: testSkipWhile_Error_Before
    func testAnErrorWhileSkippingPassesOn() {
        let scheduler = TestScheduler()
        let xs = scheduler.hotStream(Array(values.prefix(4)) + [.error(270, TestError.boom)] + Array(values.suffix(7)))
        let invoked = Counter()
        let res = scheduler.start { xs.skipWhile { invoked.increment(); return isPrime($0) } }
        XCTAssertEqual(res.events, [.error(270, TestError.boom)])
        XCTAssertEqual(xs.subscriptions, [SubscriptionSpan(200, 270)])
        XCTAssertEqual(invoked.value, 2)
    }

    // RxSwift: testSkipWhile_Error_After
    func testAnErrorAfterSkippingPassesOn() {
        let scheduler = TestScheduler()
        let xs = scheduler.hotStream(values + [.error(600, TestError.boom)])
        let invoked = Counter()
        let res = scheduler.start { xs.skipWhile { invoked.increment(); return isPrime($0) } }
        XCTAssertEqual(res.events, [.data(390, 4), .data(410, 17), .data(450, 8), .data(500, 23), .error(600, TestError.boom)])
        XCTAssertEqual(xs.subscriptions, [SubscriptionSpan(200, 600)])
        XCTAssertEqual(invoked.value, 6)
    }

    // RxSwift: testSkipWhile_Dispose_Before
    func testDisposingWhileSkippingStopsThePredicate() {
        let scheduler = TestScheduler()
        let xs = scheduler.hotStream(values + [.end(600)])
        let invoked = Counter()
        let res = scheduler.start(disposed: 300) { xs.skipWhile { invoked.increment(); return isPrime($0) } }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [SubscriptionSpan(200, 300)])
        XCTAssertEqual(invoked.value, 3)
    }

    // RxSwift: testSkipWhile_Dispose_After
    func testDisposingAfterSkippingStopsTheValues() {
        let scheduler = TestScheduler()
        let xs = scheduler.hotStream(values + [.end(600)])
        let invoked = Counter()
        let res = scheduler.start(disposed: 470) { xs.skipWhile { invoked.increment(); return isPrime($0) } }
        XCTAssertEqual(res.events, [.data(390, 4), .data(410, 17), .data(450, 8)])
        XCTAssertEqual(xs.subscriptions, [SubscriptionSpan(200, 470)])
        XCTAssertEqual(invoked.value, 6)
    }

    // RxSwift: testSkipWhile_Zero
    func testAFirstValueRefusedPassesEverything() {
        let scheduler = TestScheduler()
        let xs = scheduler.hotStream(Array(values.prefix(2)) + [.data(205, 100)] + Array(values.dropFirst(2)) + [.end(600)])
        let invoked = Counter()
        let res = scheduler.start { xs.skipWhile { invoked.increment(); return isPrime($0) } }
        XCTAssertEqual(res.events, [
            .data(205, 100), .data(210, 2), .data(260, 5), .data(290, 13), .data(320, 3), .data(350, 7),
            .data(390, 4), .data(410, 17), .data(450, 8), .data(500, 23), .end(600),
        ])
        XCTAssertEqual(xs.subscriptions, [SubscriptionSpan(200, 600)])
        XCTAssertEqual(invoked.value, 1)
    }

    // RxSwift: testSkipWhile_Throw
    func testAThrowFromThePredicateFailsTheResult() {
        let scheduler = TestScheduler()
        let xs = scheduler.hotStream(values + [.end(600)])
        let invoked = Counter()
        let res = scheduler.start {
            xs.skipWhile { value in
                invoked.increment()
                if invoked.value == 3 { throw TestError.boom }
                return isPrime(value)
            }
        }
        XCTAssertEqual(res.events, [.error(290, TestError.boom)])
        XCTAssertEqual(xs.subscriptions, [SubscriptionSpan(200, 290)])
        XCTAssertEqual(invoked.value, 3)
    }
}

/// RxSwift's test helper of the same name.
private func isPrime(_ number: Int) -> Bool {
    guard number > 1 else { return false }
    var divisor = 2
    while divisor * divisor <= number {
        if number % divisor == 0 { return false }
        divisor += 1
    }
    return true
}
