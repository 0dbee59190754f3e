// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Synchronization
import XCTest
import Streams
import StreamsTesting

/// `interval` on a scheduler with a repeating timer (`QueueScheduler` in production):
/// one timer drives every tick, and the stream still keeps tick K due at K × period.
final class IntervalOnRepeatingSchedulerTests: XCTestCase {
    func testValueKIsDueAtKTimesThePeriod() {
        let base = TestScheduler()
        let scheduler = VirtualRepeatingScheduler(base: base)
        let (recorder, subscription) = base.record(DataStream.interval(.milliseconds(100), scheduler: scheduler))
        base.advance(to: .milliseconds(350))
        XCTAssertEqual(recorder.events, [.at(0, .data(0)), .at(100, .data(1)), .at(200, .data(2)), .at(300, .data(3))])
        subscription.dispose()
    }

    func testATimerFiringSlightlyEarlyNeitherSkipsNorRepeatsATick() {
        let base = TestScheduler()
        let scheduler = VirtualRepeatingScheduler(base: base, early: .milliseconds(3))
        let (recorder, subscription) = base.record(DataStream.interval(.milliseconds(100), scheduler: scheduler))
        base.advance(to: .milliseconds(350))
        XCTAssertEqual(recorder.events, [.at(0, .data(0)), .at(97, .data(1)), .at(197, .data(2)), .at(297, .data(3))])
        subscription.dispose()
    }

    func testATimerFiringLateNeverEmitsTheNextTickBeforeItIsDue() {
        let base = TestScheduler()
        let scheduler = VirtualRepeatingScheduler(base: base, late: .milliseconds(70))
        let (recorder, subscription) = base.record(DataStream.interval(.milliseconds(100), scheduler: scheduler))
        base.advance(to: .milliseconds(400))
        XCTAssertEqual(recorder.events, [.at(70, .data(0)), .at(170, .data(1)), .at(270, .data(2)), .at(370, .data(3))])
        subscription.dispose()
    }

    func testMergedRunsCatchUpOnEveryMissedTick() {
        let base = TestScheduler()
        let scheduler = VirtualRepeatingScheduler(base: base, stride: 3)
        let (recorder, subscription) = base.record(DataStream.interval(.milliseconds(100), scheduler: scheduler))
        base.advance(to: .milliseconds(650))
        XCTAssertEqual(recorder.events, [
            .at(0, .data(0)),
            .at(300, .data(1)), .at(300, .data(2)), .at(300, .data(3)),
            .at(600, .data(4)), .at(600, .data(5)), .at(600, .data(6)),
        ])
        subscription.dispose()
    }

    func testAPeriodicTimerStartsItsRepeatingTimerAtTheDueTime() {
        let base = TestScheduler()
        let scheduler = VirtualRepeatingScheduler(base: base)
        let stream = DataStream.timer(.milliseconds(250), period: .milliseconds(100), scheduler: scheduler)
        let (recorder, subscription) = base.record(stream)
        base.advance(to: .milliseconds(460))
        XCTAssertEqual(recorder.events, [.at(250, .data(0)), .at(350, .data(1)), .at(450, .data(2))])
        subscription.dispose()
    }

    func testDisposingCancelsTheRepeatingTimer() {
        let baseline = StreamDiagnostics.liveSubscriptions
        let base = TestScheduler()
        let scheduler = VirtualRepeatingScheduler(base: base)
        let (recorder, subscription) = base.record(DataStream.interval(.milliseconds(100), scheduler: scheduler))
        base.advance(to: .milliseconds(150))
        subscription.dispose()
        XCTAssertEqual(base.pendingCount, 0)
        XCTAssertEqual(StreamDiagnostics.liveSubscriptions, baseline)
        base.advance(to: .seconds(1))
        XCTAssertEqual(recorder.values, [0, 1])
    }

    func testOnAQueueSchedulerTicksArriveInOrderAndNoSoonerThanDue() {
        let scheduler = QueueScheduler(label: "interval-repeating-test")
        let start = scheduler.now
        let arrivals = Mutex<[(value: Int, at: Duration)]>([])
        let ended = expectation(description: "ended")
        let subscription = DataStream.interval(.milliseconds(20), scheduler: scheduler).take(5).watch { event in
            switch event {
            case .data(let value): arrivals.withLock { $0.append((value, scheduler.now - start)) }
            case .error, .end: ended.fulfill()
            }
        }
        wait(for: [ended], timeout: 10)
        subscription.dispose()
        let seen = arrivals.withLock { $0 }
        XCTAssertEqual(seen.map(\.value), [0, 1, 2, 3, 4])
        for (value, at) in seen {
            XCTAssertGreaterThanOrEqual(at, .milliseconds(20) * value - .milliseconds(10), "tick \(value) came early")
        }
    }
}
