// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
import Streams
import StreamsTesting

final class TimeoutTests: XCTestCase {
    func testTimeoutFailsWhenTheGapAfterAValueIsTooLongAndDisposesTheSource() {
        let scheduler = TestScheduler()
        let source = scheduler.hotStream([.at(100, .data("a")), .at(300, .data("b")), .at(1_000, .data("c"))])
        let (recorder, _) = scheduler.record(source.timeout(.milliseconds(400), scheduler: scheduler))
        scheduler.advance(to: .seconds(2))
        XCTAssertEqual(recorder.events, [
            .at(100, .data("a")), .at(300, .data("b")), .at(700, .error(StreamTimeoutError(timeout: .milliseconds(400)))),
        ])
        XCTAssertEqual(source.subscriptions, [SubscriptionSpan(0, 700)])
    }

    func testTimeoutFailsWhenNothingArrivesAfterTheSubscription() {
        let scheduler = TestScheduler()
        let (recorder, _) = scheduler.record(DataStream<Int>.never().timeout(.milliseconds(400), scheduler: scheduler))
        scheduler.advance(to: .seconds(1))
        XCTAssertEqual(recorder.events, [.at(400, .error(StreamTimeoutError(timeout: .milliseconds(400))))])
    }

    func testASourceThatEndsInTimePassesThroughUntouched() {
        let scheduler = TestScheduler()
        let source = scheduler.hotStream([.at(100, .data("a")), .at(450, .end)])
        let (recorder, _) = scheduler.record(source.timeout(.milliseconds(400), scheduler: scheduler))
        scheduler.advance(to: .seconds(2))
        XCTAssertEqual(recorder.events, [.at(100, .data("a")), .at(450, .end)])
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    func testASynchronousSourceNeverTimesOut() {
        let scheduler = TestScheduler()
        let (recorder, _) = scheduler.record(DataStream.just(1).timeout(.milliseconds(400), scheduler: scheduler))
        scheduler.advance(to: .seconds(1))
        XCTAssertEqual(recorder.events, [.at(0, .data(1)), .at(0, .end)])
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    func testAnErrorFromTheSourcePassesOnAndCancelsTheTimer() {
        let scheduler = TestScheduler()
        let source = scheduler.hotStream([.at(100, .data("a")), .at(200, .error(TestError.boom))])
        let (recorder, _) = scheduler.record(source.timeout(.milliseconds(400), scheduler: scheduler))
        scheduler.advance(to: .seconds(1))
        XCTAssertEqual(recorder.events, [.at(100, .data("a")), .at(200, .error(TestError.boom))])
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    func testDisposingAfterTheTimerWaitedForAMovedDeadlineCancelsTheNewWait() {
        let scheduler = TestScheduler()
        let source = scheduler.hotStream([.at(100, .data("a"))])
        let (recorder, subscription) = scheduler.record(source.timeout(.milliseconds(400), scheduler: scheduler))
        // At 400 the first timer finds the deadline moved to 500 and waits again.
        scheduler.advance(to: .milliseconds(450))
        XCTAssertEqual(scheduler.pendingCount, 1)
        subscription.dispose()
        XCTAssertEqual(scheduler.pendingCount, 0)
        scheduler.advance(to: .seconds(1))
        XCTAssertEqual(recorder.events, [.at(100, .data("a"))])
        XCTAssertEqual(source.subscriptions, [SubscriptionSpan(0, 450)])
    }

    func testTheTimeoutErrorSaysHowLongItWaited() {
        XCTAssertEqual(String(describing: StreamTimeoutError(timeout: .seconds(2))), "no event within 2.0 seconds")
    }

    func testDisposingCancelsTheTimerAndReleasesTheSubscription() {
        let baseline = StreamDiagnostics.liveSubscriptions
        let scheduler = TestScheduler()
        let source = Streamer<Int>()
        let (_, subscription) = scheduler.record(source.timeout(.milliseconds(400), scheduler: scheduler))
        subscription.dispose()
        XCTAssertEqual(scheduler.pendingCount, 0)
        XCTAssertEqual(source.watcherCount, 0)
        XCTAssertEqual(StreamDiagnostics.liveSubscriptions, baseline)
    }

    func testABusySourceDoesNotArmATimerPerValue() {
        let base = TestScheduler()
        let scheduler = CountingScheduler(base: base)
        let source = base.hotStream((0..<100).map { Recorded.at($0 * 10, .data($0)) } + [.at(1_000, .end)])
        let (recorder, _) = base.record(source.timeout(.milliseconds(400), scheduler: scheduler))
        base.advance(to: .seconds(2))
        XCTAssertEqual(recorder.values.count, 100)
        XCTAssertEqual(recorder.events.last, .at(1_000, .end))
        XCTAssertLessThanOrEqual(scheduler.timersArmed, 4)
    }

    // `timeout` hands the watcher it is given on; over a stream that stops its watchers it has
    // no subscription of its own, so these are the behaviours that subscription gave.

    // source:                   -a------b|
    // timeout(400 ms).map:      -A---#            the source watched 0...500
    func testATimeoutDisposesTheSourceBeforeItFailsTheOperatorsBelow() {
        let scheduler = TestScheduler()
        let source = scheduler.hotStream("-a------b|", frame: .milliseconds(100))
        let recorder = scheduler.start(subscribed: 0) {
            source.asDataStream().timeout(.milliseconds(400), scheduler: scheduler).map { $0.uppercased() }
        }
        XCTAssertEqual(recorder.events, [.data(100, "A"), .error(500, StreamTimeoutError(timeout: .milliseconds(400)))])
        XCTAssertEqual(source.subscriptions, [SubscriptionSpan(0, 500)])
    }

    // source:                   -a--        disposed at 250 through the map below
    // timeout(400 ms).map:      -A-         no timer left, the source watched 0...250
    func testDisposingThroughTheOperatorsBelowCancelsTheTimerAndStopsTheSource() {
        let scheduler = TestScheduler()
        let source = scheduler.hotStream("-a--", frame: .milliseconds(100))
        let (recorder, subscription) = scheduler.record(
            source.asDataStream().timeout(.milliseconds(400), scheduler: scheduler).map { $0.uppercased() })
        scheduler.advance(to: .milliseconds(250))
        subscription.dispose()
        XCTAssertEqual(scheduler.pendingCount, 0)
        scheduler.advance(to: .seconds(1))
        XCTAssertEqual(recorder.events, [.data(100, "A")])
        XCTAssertEqual(source.subscriptions, [SubscriptionSpan(0, 250)])
    }

    // source:                   -a
    // timeout(400 ms).map(a → #): -#         no timer left, the source watched 0...100
    func testAThrowBelowATimeoutCancelsTheTimerAndDisposesTheSource() {
        let scheduler = TestScheduler()
        let source = scheduler.hotStream("-a", frame: .milliseconds(100))
        let (recorder, _) = scheduler.record(
            source.asDataStream().timeout(.milliseconds(400), scheduler: scheduler).map { _ -> String in throw TestError.boom })
        scheduler.advance(to: .milliseconds(150))
        XCTAssertEqual(recorder.events, [.at(100, .error(TestError.boom))])
        XCTAssertEqual(scheduler.pendingCount, 0)
        XCTAssertEqual(source.subscriptions, [SubscriptionSpan(0, 100)])
    }

    // source:                   -a          the watcher's `data` for a runs past the deadline
    // timeout(400 ms):          -a#         the source disposed at 500, the error after `data` returned
    func testATimeoutFoundWhileAValueIsDeliveredWaitsUntilTheValueHasArrived() {
        let scheduler = TestScheduler()
        let source = scheduler.hotStream("-a", frame: .milliseconds(100))
        let log = RunLog()
        source.asDataStream().timeout(.milliseconds(400), scheduler: scheduler).watch(
            data: { value in
                log.append("\(value) begins")
                scheduler.advance(by: .seconds(1))
                log.append("\(value) ends")
            },
            error: { error in log.append("\(error)") })
        scheduler.advance(to: .seconds(2))
        XCTAssertEqual(log.entries, ["a begins", "a ends", "no event within 0.4 seconds"])
        XCTAssertEqual(source.subscriptions, [SubscriptionSpan(0, 500)])
    }

    // source:                   -a--        a watcher the timeout's stream was given
    func testTheWatcherGivenToATimeoutReadsStoppedOnceItsWatchIsDisposed() {
        let scheduler = TestScheduler()
        let recorder = EventRecorder<String>()
        let watcher = recorder.watcher
        let subscription = scheduler.hotStream("-a--", frame: .milliseconds(100)).asDataStream()
            .timeout(.milliseconds(400), scheduler: scheduler).watch(using: watcher)
        scheduler.advance(to: .milliseconds(150))
        subscription.dispose()
        XCTAssertTrue(watcher.isStopped)
        XCTAssertEqual(recorder.events, [.data("a")])
    }
}
