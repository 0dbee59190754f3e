// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
import Streams
import StreamsTesting

final class TimerTests: XCTestCase {
    func testTimerEmitsZeroAtItsDueTimeThenEnds() {
        let scheduler = TestScheduler()
        let (recorder, _) = scheduler.record(DataStream.timer(.milliseconds(300), scheduler: scheduler))
        scheduler.advance(to: .milliseconds(299))
        XCTAssertEqual(recorder.events, [])
        scheduler.advance(to: .milliseconds(300))
        XCTAssertEqual(recorder.events, [.at(300, .data(0)), .at(300, .end)])
    }

    func testDisposingATimerBeforeItIsDueCancelsItAndReleasesTheSubscription() {
        let baseline = StreamDiagnostics.liveSubscriptions
        let scheduler = TestScheduler()
        let (recorder, subscription) = scheduler.record(DataStream.timer(.milliseconds(300), scheduler: scheduler))
        XCTAssertEqual(scheduler.pendingCount, 1)
        scheduler.advance(to: .milliseconds(100))
        subscription.dispose()
        XCTAssertEqual(scheduler.pendingCount, 0)
        XCTAssertEqual(StreamDiagnostics.liveSubscriptions, baseline)
        scheduler.advance(to: .seconds(1))
        XCTAssertEqual(recorder.events, [])
    }

    func testAFiredTimerLeavesNothingBehind() {
        let baseline = StreamDiagnostics.liveSubscriptions
        let scheduler = TestScheduler()
        _ = scheduler.record(DataStream.timer(.milliseconds(300), scheduler: scheduler))
        scheduler.advance(to: .milliseconds(300))
        XCTAssertEqual(scheduler.pendingCount, 0)
        XCTAssertEqual(StreamDiagnostics.liveSubscriptions, baseline)
    }

    func testPeriodicTimerFirstTicksAtItsDueTimeThenEveryPeriod() {
        let scheduler = TestScheduler()
        let stream = DataStream.timer(.milliseconds(300), period: .milliseconds(100), scheduler: scheduler)
        let (recorder, subscription) = scheduler.record(stream)
        scheduler.advance(to: .milliseconds(550))
        XCTAssertEqual(recorder.events, [.at(300, .data(0)), .at(400, .data(1)), .at(500, .data(2))])
        subscription.dispose()
    }

    func testPeriodicTimerFailsOnANonPositivePeriod() {
        let scheduler = TestScheduler()
        let (recorder, _) = scheduler.record(DataStream.timer(.zero, period: .zero, scheduler: scheduler))
        XCTAssertEqual(recorder.events, [.at(0, .error(InvalidDurationError(operatorName: "timer", duration: .zero)))])
        XCTAssertEqual(scheduler.pendingCount, 0)
    }
}
