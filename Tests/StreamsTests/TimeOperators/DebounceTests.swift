// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
import Streams
import StreamsTesting

final class DebounceTests: XCTestCase {
    func testDebounceEmitsAValueOnceTheSourceStaysQuietForTheDueTime() {
        let scheduler = TestScheduler()
        let source = scheduler.hotStream([
            .at(100, .data("a")), .at(200, .data("b")), .at(900, .data("c")), .at(2_000, .end),
        ])
        let (recorder, _) = scheduler.record(source.debounce(.milliseconds(300), scheduler: scheduler))
        scheduler.advance(to: .seconds(3))
        XCTAssertEqual(recorder.events, [.at(500, .data("b")), .at(1_200, .data("c")), .at(2_000, .end)])
    }

    func testEveryValueRestartsTheWait() {
        let scheduler = TestScheduler()
        let source = scheduler.hotStream((0..<5).map { Recorded.at($0 * 200, .data($0)) })
        let (recorder, subscription) = scheduler.record(source.debounce(.milliseconds(300), scheduler: scheduler))
        scheduler.advance(to: .milliseconds(1_099))
        XCTAssertEqual(recorder.events, [])
        scheduler.advance(to: .milliseconds(1_100))
        XCTAssertEqual(recorder.events, [.at(1_100, .data(4))])
        subscription.dispose()
    }

    func testTheEndFlushesTheWaitingValueAtOnce() {
        let scheduler = TestScheduler()
        let source = scheduler.hotStream([.at(100, .data("a")), .at(200, .end)])
        let (recorder, _) = scheduler.record(source.debounce(.milliseconds(300), scheduler: scheduler))
        scheduler.advance(to: .seconds(1))
        XCTAssertEqual(recorder.events, [.at(200, .data("a")), .at(200, .end)])
    }

    func testAnErrorDropsTheWaitingValue() {
        let scheduler = TestScheduler()
        let source = scheduler.hotStream([.at(100, .data("a")), .at(200, .error(TestError.boom))])
        let (recorder, _) = scheduler.record(source.debounce(.milliseconds(300), scheduler: scheduler))
        scheduler.advance(to: .seconds(1))
        XCTAssertEqual(recorder.events, [.at(200, .error(TestError.boom))])
    }

    func testDisposingWhileAValueWaitsCancelsTheTimerAndReleasesTheSubscription() {
        assertDisposingCancelsPendingWork(feeding: "a") { source, scheduler in source.debounce(.milliseconds(300), scheduler: scheduler) }
    }

    func testAZeroDueTimeOnTheImmediateSchedulerPassesEveryValueAtOnce() {
        let recorder = EventRecorder<Int>()
        DataStream.just(data: [1, 2, 3]).debounce(.zero, scheduler: ImmediateScheduler()).watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.data(1), .data(2), .data(3), .end])
    }

    func testABurstOfValuesArmsOneTimerPerPauseNotOnePerValue() {
        let base = TestScheduler()
        let scheduler = CountingScheduler(base: base)
        let source = base.hotStream((0..<10).map { Recorded.at($0 * 50, .data($0)) })
        let (recorder, subscription) = base.record(source.debounce(.milliseconds(300), scheduler: scheduler))
        base.advance(to: .seconds(2))
        XCTAssertEqual(recorder.events, [.at(750, .data(9))])
        // Armed at 0 ms; at 300 and 600 ms it finds the deadline moved and waits for the rest.
        XCTAssertEqual(scheduler.timersArmed, 3)
        subscription.dispose()
    }
}
