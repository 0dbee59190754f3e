// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
import Streams
import StreamsTesting

final class IntervalTests: XCTestCase {
    func testIntervalEmitsValueKAtKTimesThePeriodStartingAtOnce() {
        let scheduler = TestScheduler()
        let (recorder, subscription) = scheduler.record(DataStream.interval(.milliseconds(100), scheduler: scheduler))
        scheduler.advance(to: .milliseconds(350))
        XCTAssertEqual(recorder.events, [.at(0, .data(0)), .at(100, .data(1)), .at(200, .data(2)), .at(300, .data(3))])
        subscription.dispose()
    }

    func testIntervalDoesNotDriftWhenEveryTimerFiresLate() {
        let base = TestScheduler()
        let late = LaggingScheduler(base: base, lag: .milliseconds(7))
        let (recorder, subscription) = base.record(DataStream.interval(.milliseconds(100), scheduler: late))
        base.advance(to: .milliseconds(1_010))
        let expected: [Recorded<Int>] = (0...10).map { .at($0 * 100 + 7, .data($0)) }
        XCTAssertEqual(recorder.events, expected)
        subscription.dispose()
    }

    func testIntervalEmitsOverdueTicksTogetherWithoutSkippingAny() {
        let base = TestScheduler()
        let late = LaggingScheduler(base: base, lag: .milliseconds(250))
        let (recorder, subscription) = base.record(DataStream.interval(.milliseconds(100), scheduler: late))
        base.advance(to: .milliseconds(560))
        XCTAssertEqual(recorder.events, [
            .at(250, .data(0)), .at(250, .data(1)), .at(250, .data(2)),
            .at(550, .data(3)), .at(550, .data(4)), .at(550, .data(5)),
        ])
        subscription.dispose()
    }

    func testDisposingAnIntervalCancelsItsTimerAndReleasesTheSubscription() {
        let baseline = StreamDiagnostics.liveSubscriptions
        let scheduler = TestScheduler()
        let (recorder, subscription) = scheduler.record(DataStream.interval(.milliseconds(100), scheduler: scheduler))
        scheduler.advance(to: .milliseconds(150))
        subscription.dispose()
        XCTAssertEqual(scheduler.pendingCount, 0)
        XCTAssertEqual(StreamDiagnostics.liveSubscriptions, baseline)
        scheduler.advance(to: .seconds(1))
        XCTAssertEqual(recorder.values, [0, 1])
    }

    func testAWatcherEndingTheIntervalFromInsideATickStopsIt() {
        let scheduler = TestScheduler()
        let recorder = RecordingWatcher<Int>(scheduler)
        let firstThree = DataStream<Int> { watcher in
            DataStream.interval(.milliseconds(100), scheduler: scheduler).watch { event in
                watcher.event(event)
                if case .data(2) = event { watcher.end() }
            }
        }
        firstThree.watch(using: recorder.watcher)
        scheduler.advance(to: .seconds(1))
        XCTAssertEqual(recorder.events, [.at(0, .data(0)), .at(100, .data(1)), .at(200, .data(2)), .at(200, .end)])
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    func testIntervalFailsOnANonPositivePeriod() {
        let scheduler = TestScheduler()
        let period = Duration.milliseconds(-5)
        let (recorder, _) = scheduler.record(DataStream.interval(period, scheduler: scheduler))
        XCTAssertEqual(recorder.events, [.at(0, .error(InvalidDurationError(operatorName: "interval", duration: period)))])
    }

    func testOnTheImmediateSchedulerTheFirstTickArrivesBeforeWatchReturns() {
        let recorder = EventRecorder<Int>()
        let subscription = DataStream.interval(.seconds(100), scheduler: ImmediateScheduler()).watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.data(0)])
        subscription.dispose()
    }
}
