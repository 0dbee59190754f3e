// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
import Streams
import StreamsTesting

final class DelayTests: XCTestCase {
    func testDelayShiftsValuesAndTheEndKeepingTheirSpacing() {
        let scheduler = TestScheduler()
        let source = scheduler.hotStream([
            .at(100, .data("a")), .at(200, .data("b")), .at(600, .data("c")), .at(700, .end),
        ])
        let (recorder, _) = scheduler.record(source.delay(.milliseconds(300), scheduler: scheduler))
        scheduler.advance(to: .seconds(2))
        XCTAssertEqual(recorder.events, [
            .at(400, .data("a")), .at(500, .data("b")), .at(900, .data("c")), .at(1_000, .end),
        ])
    }

    func testValuesArrivingTogetherLeaveTogetherInOrder() {
        let scheduler = TestScheduler()
        let (recorder, _) = scheduler.record(DataStream.just(data: [1, 2, 3]).delay(.milliseconds(300), scheduler: scheduler))
        scheduler.advance(to: .seconds(1))
        XCTAssertEqual(recorder.events, [.at(300, .data(1)), .at(300, .data(2)), .at(300, .data(3)), .at(300, .end)])
    }

    func testAnErrorIsNotDelayedAndDropsWaitingValues() {
        let scheduler = TestScheduler()
        let source = scheduler.hotStream([.at(100, .data("a")), .at(200, .error(TestError.boom))])
        let (recorder, _) = scheduler.record(source.delay(.milliseconds(300), scheduler: scheduler))
        scheduler.advance(to: .seconds(1))
        XCTAssertEqual(recorder.events, [.at(200, .error(TestError.boom))])
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    func testDisposingCancelsTheTimerAndReleasesTheSubscription() {
        assertDisposingCancelsPendingWork(feeding: 1) { source, scheduler in source.delay(.milliseconds(300), scheduler: scheduler) }
    }

    func testAZeroDelayOnTheImmediateSchedulerPassesEventsThroughAtOnceInOrder() {
        let recorder = EventRecorder<Int>()
        DataStream.just(data: [1, 2, 3]).delay(.zero, scheduler: ImmediateScheduler()).watch(using: recorder.watcher)
        XCTAssertEqual(recorder.events, [.data(1), .data(2), .data(3), .end])
    }
}
