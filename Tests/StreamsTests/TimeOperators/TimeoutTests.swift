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
}
