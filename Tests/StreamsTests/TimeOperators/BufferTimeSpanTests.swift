// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
import Streams
import StreamsTesting

final class BufferTimeSpanTests: XCTestCase {
    private func source(_ scheduler: TestScheduler) -> HotStream<String> {
        scheduler.hotStream([
            .at(100, .data("a")), .at(200, .data("b")), .at(500, .data("c")), .at(900, .data("d")), .at(1_100, .end),
        ])
    }

    func testBufferEmitsWhatArrivedDuringEachTimeSpanAndTheRestAtTheEnd() {
        let scheduler = TestScheduler()
        let (recorder, _) = scheduler.record(source(scheduler).buffer(timeSpan: .milliseconds(400), scheduler: scheduler))
        scheduler.advance(to: .seconds(2))
        XCTAssertEqual(recorder.events, [
            .at(400, .data(["a", "b"])), .at(800, .data(["c"])), .at(1_100, .data(["d"])), .at(1_100, .end),
        ])
    }

    func testBufferEmitsEmptyArraysForQuietTimeSpans() {
        let scheduler = TestScheduler()
        let source = scheduler.hotStream([Recorded<String>.at(900, .end)])
        let (recorder, _) = scheduler.record(source.buffer(timeSpan: .milliseconds(400), scheduler: scheduler))
        scheduler.advance(to: .seconds(2))
        XCTAssertEqual(recorder.events, [.at(400, .data([])), .at(800, .data([])), .at(900, .end)])
    }

    func testAFullArrayGoesOutAtOnceAndStartsANewTimeSpan() {
        let scheduler = TestScheduler()
        let buffered = source(scheduler).buffer(timeSpan: .milliseconds(400), count: 2, scheduler: scheduler)
        let (recorder, _) = scheduler.record(buffered)
        scheduler.advance(to: .seconds(2))
        XCTAssertEqual(recorder.events, [
            .at(200, .data(["a", "b"])), .at(600, .data(["c"])), .at(1_000, .data(["d"])), .at(1_100, .end),
        ])
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    func testTimeSpansDoNotDriftWhenEveryTimerFiresLate() {
        let base = TestScheduler()
        let late = LaggingScheduler(base: base, lag: .milliseconds(7))
        let (recorder, subscription) = base.record(Streamer<Int>().buffer(timeSpan: .milliseconds(100), scheduler: late))
        base.advance(to: .milliseconds(1_010))
        XCTAssertEqual(recorder.events.map(\.time), (1...10).map { $0 * 100 + 7 })
        subscription.dispose()
    }

    func testAnErrorDropsTheCollectedValues() {
        let scheduler = TestScheduler()
        let source = scheduler.hotStream([.at(100, .data("a")), .at(200, .error(TestError.boom))])
        let (recorder, _) = scheduler.record(source.buffer(timeSpan: .milliseconds(400), scheduler: scheduler))
        scheduler.advance(to: .seconds(1))
        XCTAssertEqual(recorder.events, [.at(200, .error(TestError.boom))])
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    func testANonPositiveTimeSpanFails() {
        let scheduler = TestScheduler()
        let (recorder, _) = scheduler.record(Streamer<Int>().buffer(timeSpan: .zero, scheduler: scheduler))
        XCTAssertEqual(recorder.events, [.at(0, .error(InvalidDurationError(operatorName: "buffer", duration: .zero)))])
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    func testDisposingCancelsTheTimerAndReleasesTheSubscription() {
        let baseline = StreamDiagnostics.liveSubscriptions
        let scheduler = TestScheduler()
        let source = Streamer<Int>()
        let (_, subscription) = scheduler.record(source.buffer(timeSpan: .milliseconds(400), scheduler: scheduler))
        scheduler.advance(to: .milliseconds(500))
        subscription.dispose()
        XCTAssertEqual(scheduler.pendingCount, 0)
        XCTAssertEqual(source.watcherCount, 0)
        XCTAssertEqual(StreamDiagnostics.liveSubscriptions, baseline)
    }
}
