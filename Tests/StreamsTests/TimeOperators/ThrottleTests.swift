// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
import Streams
import StreamsTesting

final class ThrottleTests: XCTestCase {
    private func source(_ scheduler: TestScheduler) -> HotStream<String> {
        scheduler.hotStream([
            .at(100, .data("a")), .at(200, .data("b")), .at(300, .data("c")),
            .at(1_500, .data("d")), .at(1_600, .data("e")), .at(2_000, .end),
        ])
    }

    func testThrottleEmitsAtOnceThenTheLatestValueWhenTheIntervalIsOver() {
        let scheduler = TestScheduler()
        let (recorder, _) = scheduler.record(source(scheduler).throttle(.milliseconds(400), scheduler: scheduler))
        scheduler.advance(to: .seconds(3))
        XCTAssertEqual(recorder.events, [
            .at(100, .data("a")), .at(500, .data("c")), .at(1_500, .data("d")), .at(1_900, .data("e")), .at(2_000, .end),
        ])
    }

    func testThrottleWithoutLatestKeepsOnlyTheFirstValueOfEachInterval() {
        let scheduler = TestScheduler()
        let throttled = source(scheduler).throttle(.milliseconds(400), latest: false, scheduler: scheduler)
        let (recorder, _) = scheduler.record(throttled)
        scheduler.advance(to: .seconds(3))
        XCTAssertEqual(recorder.events, [.at(100, .data("a")), .at(1_500, .data("d")), .at(2_000, .end)])
    }

    func testTheEndWaitsForTheKeptValueToGoOut() {
        let scheduler = TestScheduler()
        let source = scheduler.hotStream([.at(100, .data("a")), .at(200, .data("b")), .at(300, .end)])
        let (recorder, _) = scheduler.record(source.throttle(.milliseconds(400), scheduler: scheduler))
        scheduler.advance(to: .seconds(1))
        XCTAssertEqual(recorder.events, [.at(100, .data("a")), .at(500, .data("b")), .at(500, .end)])
    }

    func testAnErrorPassesAtOnceDropsTheKeptValueAndCancelsTheTimer() {
        let scheduler = TestScheduler()
        let source = Streamer<String>()
        let (recorder, _) = scheduler.record(source.throttle(.milliseconds(400), scheduler: scheduler))
        source.data("a")
        scheduler.advance(to: .milliseconds(100))
        source.data("b")
        XCTAssertEqual(scheduler.pendingCount, 1)
        source.error(TestError.boom)
        XCTAssertEqual(scheduler.pendingCount, 0)
        scheduler.advance(to: .seconds(1))
        XCTAssertEqual(recorder.events, [.at(0, .data("a")), .at(100, .error(TestError.boom))])
    }

    func testDisposingReleasesTheTimerAndTheSubscription() {
        let baseline = StreamDiagnostics.liveSubscriptions
        let scheduler = TestScheduler()
        let source = Streamer<String>()
        let (_, subscription) = scheduler.record(source.throttle(.milliseconds(400), scheduler: scheduler))
        source.data("a")
        source.data("b")
        subscription.dispose()
        XCTAssertEqual(scheduler.pendingCount, 0)
        XCTAssertEqual(source.watcherCount, 0)
        XCTAssertEqual(StreamDiagnostics.liveSubscriptions, baseline)
    }
}
