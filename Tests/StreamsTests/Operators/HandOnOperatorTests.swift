// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
import Streams
import StreamsTesting

/// One-to-one operators (`map`, `filter`, `compactMap`, `call`, `asSingle`, `recover`) hand the
/// watcher they are given on instead of starting a subscription of their own: these are the
/// behaviours that subscription used to guarantee, kept without it.
final class HandOnOperatorTests: XCTestCase {
    func testDisposingAWatchThroughOneToOneOperatorsStopsTheWatcherGivenToIt() {
        let baseline = StreamDiagnostics.liveSubscriptions
        let source = Streamer<Int>()
        let recorder = EventRecorder<Int>()
        let watcher = recorder.watcher
        let subscription = source.map { $0 * 10 }.filter { $0 > 0 }.call(data: { _ in }).watch(using: watcher)
        source.data(1)
        subscription.dispose()
        source.data(2)
        XCTAssertEqual(recorder.events, [.data(10)])
        XCTAssertTrue(watcher.isStopped)
        XCTAssertEqual(source.watcherCount, 0)
        XCTAssertEqual(StreamDiagnostics.liveSubscriptions, baseline)
    }

    // source:                          ---a--b--c--|
    // call(error:disposed:).map(b → #): ---a--#         source watched 0...500; `error` not run, `disposed` once
    func testAThrowBelowACallDisposesTheSourceRunsDisposedAndSkipsTheErrorSideEffect() {
        let scheduler = TestScheduler()
        let source = scheduler.hotStream("---a--b--c--|", frame: .milliseconds(100))
        let errors = Counter()
        let disposals = Counter()
        let recorder = scheduler.start(subscribed: 0) {
            source.call(error: { _ in errors.increment() }, disposed: { disposals.increment() })
                .map { value -> String in
                    if value == "b" { throw TestError.boom }
                    return value
                }
        }
        XCTAssertEqual(recorder.events, [.data(300, "a"), .error(600, TestError.boom)])
        XCTAssertEqual(source.subscriptions, [SubscriptionSpan(0, 600)])
        XCTAssertEqual(errors.value, 0)
        XCTAssertEqual(disposals.value, 1)
    }

    // source:                   -a-b-|
    // map.asSingle():           ---#      CardinalityError.moreThanOneValue, source watched 0...300
    func testASecondValueFailsAsSingleAndDisposesTheSourceThroughTheOperatorsAbove() {
        let scheduler = TestScheduler()
        let source = scheduler.hotStream("-a-b-|", frame: .milliseconds(100))
        let recorder = scheduler.start(subscribed: 0) { source.map { $0.uppercased() }.asSingle() }
        XCTAssertEqual(recorder.events, [.error(300, CardinalityError.moreThanOneValue(conversion: "asSingle()"))])
        XCTAssertEqual(source.subscriptions, [SubscriptionSpan(0, 300)])
    }

    // from(1...).map.compactMap(throws at 3): -1-2-#   and the endless source stops
    func testAThrowTwoOperatorsBelowStopsAnEndlessSynchronousSource() {
        let recorder = EventRecorder<Int>()
        let emitted = Counter()
        DataStream.from(1...).call(data: { _ in emitted.increment() })
            .map { $0 }
            .compactMap { value -> Int? in
                if value == 3 { throw TestError.boom }
                return value
            }
            .watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.data(1), .data(2), .error(TestError.boom)])
        XCTAssertEqual(emitted.value, 3)
    }

    // source:               -a-#
    // fallback:                -x-y|
    // recover.map:          -A--X-Y|     disposing the watch later reaches the fallback
    func testRecoverFeedsTheFallbackIntoTheOperatorsBelowAndDisposalReachesIt() {
        let scheduler = TestScheduler()
        let source = scheduler.hotStream("-a-#", frame: .milliseconds(100))
        let fallback = scheduler.coldStream("-x-y-z|", frame: .milliseconds(100))
        let recorder = scheduler.start(subscribed: 0, disposed: 650) { source.recover { _ in fallback }.map { $0.uppercased() } }
        XCTAssertEqual(recorder.events, [.data(100, "A"), .data(400, "X"), .data(600, "Y")])
        XCTAssertEqual(fallback.subscriptions, [SubscriptionSpan(300, 650)])
    }
}
