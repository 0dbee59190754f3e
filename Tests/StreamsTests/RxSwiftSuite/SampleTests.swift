// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
import Streams
import StreamsTesting

/// RxSwift's own tests of `sample` (Tests/RxSwiftTests/Observable+SampleTests.swift), with their
/// inputs, virtual times, expected events and subscription spans as RxSwift wrote them;
/// `next` is `data`, `completed` is `end`, `testError` is `TestError.boom`.
final class SampleTests: XCTestCase {
    private func source(_ scheduler: TestScheduler, ending end: Recorded<Int> = .end(400)) -> HotStream<Int> {
        scheduler.hotStream([.data(150, 1), .data(220, 2), .data(240, 3), .data(290, 4), .data(300, 5), .data(310, 6), end])
    }

    private func sampler(_ scheduler: TestScheduler) -> HotStream<String> {
        scheduler.hotStream([.data(150, ""), .data(210, "bar"), .data(250, "foo"), .data(260, "qux"), .data(320, "baz"), .end(500)])
    }

    // RxSwift: testSample_Sampler_DefaultValue
    func testATickWithoutANewValueEmitsTheDefaultValue() {
        let scheduler = TestScheduler()
        let xs = source(scheduler), ys = sampler(scheduler)
        let res = scheduler.start { xs.sample(ys, defaultValue: 0) }
        XCTAssertEqual(res.events, [.data(210, 0), .data(250, 3), .data(260, 0), .data(320, 6), .data(500, 0), .end(500)])
        XCTAssertEqual(xs.subscriptions, [SubscriptionSpan(200, 400)])
        XCTAssertEqual(ys.subscriptions, [SubscriptionSpan(200, 500)])
    }

    // RxSwift: testSample_Sampler_SamplerThrows
    func testAnErrorOfTheSamplerFailsTheResultAndDisposesBoth() {
        let scheduler = TestScheduler()
        let xs = source(scheduler)
        let ys = scheduler.hotStream([.data(150, ""), .data(210, "bar"), .data(250, "foo"), .data(260, "qux"), .error(320, TestError.boom)])
        let res = scheduler.start { xs.sample(ys) }
        XCTAssertEqual(res.events, [.data(250, 3), .error(320, TestError.boom)])
        XCTAssertEqual(xs.subscriptions, [SubscriptionSpan(200, 320)])
        XCTAssertEqual(ys.subscriptions, [SubscriptionSpan(200, 320)])
    }

    // RxSwift: testSample_Sampler_Simple1
    func testEachTickEmitsTheLatestValueOnceAndTheSamplersEndEndsAfterTheSource() {
        let scheduler = TestScheduler()
        let xs = source(scheduler), ys = sampler(scheduler)
        let res = scheduler.start { xs.sample(ys) }
        XCTAssertEqual(res.events, [.data(250, 3), .data(320, 6), .end(500)])
        XCTAssertEqual(xs.subscriptions, [SubscriptionSpan(200, 400)])
        XCTAssertEqual(ys.subscriptions, [SubscriptionSpan(200, 500)])
    }

    // RxSwift: testSample_Sampler_Simple2
    func testTheSamplersEndTakesTheUnsampledValueAlong() {
        let scheduler = TestScheduler()
        let xs = scheduler.hotStream([
            .data(150, 1), .data(220, 2), .data(240, 3), .data(290, 4), .data(300, 5), .data(310, 6), .data(360, 7), .end(400),
        ])
        let ys = sampler(scheduler)
        let res = scheduler.start { xs.sample(ys) }
        XCTAssertEqual(res.events, [.data(250, 3), .data(320, 6), .data(500, 7), .end(500)])
        XCTAssertEqual(xs.subscriptions, [SubscriptionSpan(200, 400)])
        XCTAssertEqual(ys.subscriptions, [SubscriptionSpan(200, 500)])
    }

    // RxSwift: testSample_Sampler_Simple3
    func testTheSourcesEndWaitsForTheNextTickWhichEndsTheResult() {
        let scheduler = TestScheduler()
        let xs = scheduler.hotStream([.data(150, 1), .data(220, 2), .data(240, 3), .data(290, 4), .end(300)])
        let ys = sampler(scheduler)
        let res = scheduler.start { xs.sample(ys) }
        XCTAssertEqual(res.events, [.data(250, 3), .data(320, 4), .end(320)])
        XCTAssertEqual(xs.subscriptions, [SubscriptionSpan(200, 300)])
        XCTAssertEqual(ys.subscriptions, [SubscriptionSpan(200, 320)])
    }

    // RxSwift: testSample_Sampler_SourceThrows
    func testAnErrorOfTheSourceFailsTheResultAndDisposesBoth() {
        let scheduler = TestScheduler()
        let xs = source(scheduler, ending: .error(320, TestError.boom))
        let ys = scheduler.hotStream([.data(150, ""), .data(210, "bar"), .data(250, "foo"), .data(260, "qux"), .data(300, "baz"), .end(400)])
        let res = scheduler.start { xs.sample(ys) }
        XCTAssertEqual(res.events, [.data(250, 3), .data(300, 5), .error(320, TestError.boom)])
        XCTAssertEqual(xs.subscriptions, [SubscriptionSpan(200, 320)])
        XCTAssertEqual(ys.subscriptions, [SubscriptionSpan(200, 320)])
    }

    // Not in RxSwift's suite. Deliberate difference: RxSwift stays silent until disposed when the
    // sampler ends before the source (nothing can leave it again); Streams ends, as RxJava does.
    func testTheSamplersEndBeforeTheSourcesEndsTheResultUnlikeRxSwift() {
        let scheduler = TestScheduler()
        let xs = scheduler.hotStream([.data(220, 2), .data(240, 3), .end(600)])
        let ys = scheduler.hotStream([.data(230, "a"), .end(300)])
        let res = scheduler.start { xs.sample(ys) }
        XCTAssertEqual(res.events, [.data(230, 2), .data(300, 3), .end(300)])
        XCTAssertEqual(xs.subscriptions, [SubscriptionSpan(200, 300)])
        XCTAssertEqual(ys.subscriptions, [SubscriptionSpan(200, 300)])
    }
}
