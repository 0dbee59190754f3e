// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
import Streams
import StreamsTesting

/// RxSwift's own tests of `take(until:behavior:)` (Tests/RxSwiftTests/Observable+TakeUntilTests.swift,
/// "TakeUntil Predicate Tests"), inputs, times, expected events and subscription spans unchanged;
/// `.exclusive` is `takeUntil { … }`, `.inclusive` is `takeUntil(inclusive: true) { … }`.
final class TakeUntilPredicateTests: XCTestCase {
    private func someData(_ scheduler: TestScheduler) -> HotStream<Int> {
        scheduler.hotStream([.data(150, 1), .data(210, 2), .data(220, 3), .data(230, 4), .data(240, 5), .end(250)])
    }

    private func failing(_ scheduler: TestScheduler) -> HotStream<Int> {
        scheduler.hotStream([.data(150, 1), .data(210, 2), .data(220, 3), .error(225, TestError.boom)])
    }

    // RxSwift: testTakeUntilPredicate_Exclusive_Preempt_SomeData_Next
    func testExclusiveEndsAtTheFirstMatchingValueWithoutIt() {
        let scheduler = TestScheduler()
        let l = someData(scheduler)
        let res = scheduler.start { l.takeUntil { $0 == 4 } }
        XCTAssertEqual(res.events, [.data(210, 2), .data(220, 3), .end(230)])
        XCTAssertEqual(l.subscriptions, [SubscriptionSpan(200, 230)])
    }

    // RxSwift: testTakeUntilPredicate_Exclusive_Preempt_SomeData_Error
    func testExclusivePassesAnErrorBeforeAnyMatch() {
        let scheduler = TestScheduler()
        let l = failing(scheduler)
        let res = scheduler.start { l.takeUntil { $0 == 4 } }
        XCTAssertEqual(res.events, [.data(210, 2), .data(220, 3), .error(225, TestError.boom)])
        XCTAssertEqual(l.subscriptions, [SubscriptionSpan(200, 225)])
    }

    // RxSwift: testTakeUntilPredicate_Exclusive_AlwaysFailingPredicate
    func testExclusiveWithAPredicateThatNeverHoldsPassesEverything() {
        let scheduler = TestScheduler()
        let l = someData(scheduler)
        let res = scheduler.start { l.takeUntil { _ in false } }
        XCTAssertEqual(res.events, [.data(210, 2), .data(220, 3), .data(230, 4), .data(240, 5), .end(250)])
        XCTAssertEqual(l.subscriptions, [SubscriptionSpan(200, 250)])
    }

    // RxSwift: testTakeUntilPredicate_Exclusive_ImmediatelySuccessfulPredicate
    func testExclusiveWithAPredicateThatAlwaysHoldsEndsAtTheFirstValue() {
        let scheduler = TestScheduler()
        let l = someData(scheduler)
        let res = scheduler.start { l.takeUntil { _ in true } }
        XCTAssertEqual(res.events, [.end(210)])
        XCTAssertEqual(l.subscriptions, [SubscriptionSpan(200, 210)])
    }

    // RxSwift: testTakeUntilPredicate_Inclusive_Preempt_SomeData_Next
    func testInclusivePassesTheFirstMatchingValueThenEnds() {
        let scheduler = TestScheduler()
        let l = someData(scheduler)
        let res = scheduler.start { l.takeUntil(inclusive: true) { $0 == 4 } }
        XCTAssertEqual(res.events, [.data(210, 2), .data(220, 3), .data(230, 4), .end(230)])
        XCTAssertEqual(l.subscriptions, [SubscriptionSpan(200, 230)])
    }

    // RxSwift: testTakeUntilPredicate_Inclusive_Preempt_SomeData_Error
    func testInclusivePassesAnErrorBeforeAnyMatch() {
        let scheduler = TestScheduler()
        let l = failing(scheduler)
        let res = scheduler.start { l.takeUntil(inclusive: true) { $0 == 4 } }
        XCTAssertEqual(res.events, [.data(210, 2), .data(220, 3), .error(225, TestError.boom)])
        XCTAssertEqual(l.subscriptions, [SubscriptionSpan(200, 225)])
    }

    // RxSwift: testTakeUntilPredicate_Inclusive_AlwaysFailingPredicate
    func testInclusiveWithAPredicateThatNeverHoldsPassesEverything() {
        let scheduler = TestScheduler()
        let l = someData(scheduler)
        let res = scheduler.start { l.takeUntil(inclusive: true) { _ in false } }
        XCTAssertEqual(res.events, [.data(210, 2), .data(220, 3), .data(230, 4), .data(240, 5), .end(250)])
        XCTAssertEqual(l.subscriptions, [SubscriptionSpan(200, 250)])
    }

    // RxSwift: testTakeUntilPredicate_Inclusive_ImmediatelySuccessfulPredicate
    func testInclusiveWithAPredicateThatAlwaysHoldsPassesTheFirstValueAndEnds() {
        let scheduler = TestScheduler()
        let l = someData(scheduler)
        let res = scheduler.start { l.takeUntil(inclusive: true) { _ in true } }
        XCTAssertEqual(res.events, [.data(210, 2), .end(210)])
        XCTAssertEqual(l.subscriptions, [SubscriptionSpan(200, 210)])
    }

    // Not in RxSwift's suite (its predicate cannot throw).
    func testAThrowingPredicateFailsTheResultAndDisposesTheSource() {
        let scheduler = TestScheduler()
        let l = someData(scheduler)
        let res = scheduler.start { l.takeUntil { value in if value == 3 { throw TestError.other }; return false } }
        XCTAssertEqual(res.events, [.data(210, 2), .error(220, TestError.other)])
        XCTAssertEqual(l.subscriptions, [SubscriptionSpan(200, 220)])
    }
}
