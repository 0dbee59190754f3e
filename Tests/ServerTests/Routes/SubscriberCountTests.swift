// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import CoreMetrics
import HTTP
import MetricsTestKit
import Streams
import StreamsTesting
import XCTest
@testable import Server

final class SubscriberCountTests: XCTestCase {
    func testCountedStreamMovesTheGaugeUpAndBackDownOnce() throws {
        let recorded = TestMetrics()
        let gauge = Meter(label: "g", factory: recorded)
        let source = Streamer<[UInt8]>()
        let subscription = source.asDataStream().counted(in: gauge).watch(data: { _ in })
        XCTAssertEqual(try recorded.expectMeter(gauge).values, [1])
        source.end()
        subscription.dispose()
        XCTAssertEqual(try recorded.expectMeter(gauge).values, [1, 0])
    }

    // The fast path (`EventStreamBody`'s `opened`/`closed` on its own gate) against its slow
    // twin (the body, then `counted(in:)`): the same body events and the same gauge moves, in
    // the same order, whichever way the stream finishes.

    func testTheBodysOwnCountAgreesWithTheCountedStageWhenTheFeedEnds() throws {
        try assertBothCountAlike { events, beats, _ in
            events.data(Array("a".utf8))
            beats.data(Array("h".utf8))
            beats.data(Array("h".utf8))
            events.end()
            beats.data(Array("h".utf8))
        }
    }

    func testTheBodysOwnCountAgreesWithTheCountedStageWhenTheFeedFails() throws {
        try assertBothCountAlike { events, _, _ in
            events.data(Array("a".utf8))
            events.error(CancellationError())
            events.data(Array("b".utf8))
        }
    }

    func testTheBodysOwnCountAgreesWithTheCountedStageWhenTheSubscriberLeaves() throws {
        try assertBothCountAlike { events, beats, subscription in
            events.data(Array("a".utf8))
            subscription.dispose()
            events.data(Array("b".utf8))
            beats.data(Array("h".utf8))
            subscription.dispose()
        }
    }

    func testTheBodysOwnCountAgreesWithTheCountedStageWhenTheFeedEndsAndTheSubscriberThenLeaves() throws {
        try assertBothCountAlike { events, _, subscription in
            events.end()
            subscription.dispose()
        }
    }

    /// What one run of `script` did: the body's events and the gauge's values after each step.
    private struct Run: Equatable {
        var events: [Event<[UInt8]>] = []
        var gauge: [Int] = []
        var gaugeAfterScript: [Int] = []
    }

    private func assertBothCountAlike(
        _ script: (Streamer<[UInt8]>, Streamer<[UInt8]>, Disposable) -> Void,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        func run(fused: Bool) throws -> Run {
            let metrics = TestMetrics()
            let gauge = Meter(label: "sse_subscribers", factory: metrics)
            let events = Streamer<[UInt8]>()
            let beats = Streamer<[UInt8]>()
            let body = fused
                ? EventStreamBody.make(
                    prelude: Array("p".utf8), events: events.asDataStream(), heartbeats: beats.asDataStream(),
                    opened: { gauge.increment() }, closed: { gauge.decrement() })
                : EventStreamBody.make(prelude: Array("p".utf8), events: events.asDataStream(), heartbeats: beats.asDataStream())
                    .counted(in: gauge)
            let recorder = EventRecorder<[UInt8]>()
            let subscription = recorder.watch(body)
            var result = Run()
            result.gauge = try metrics.expectMeter(gauge).values.map { Int($0) }
            script(events, beats, subscription)
            result.gaugeAfterScript = try metrics.expectMeter(gauge).values.map { Int($0) }
            subscription.dispose()
            result.events = recorder.events
            XCTAssertEqual(try metrics.expectMeter(gauge).values.last, 0, "the gauge is back at zero once disposed", file: file, line: line)
            return result
        }
        let fast = try run(fused: true)
        let slow = try run(fused: false)
        XCTAssertEqual(fast.gauge, [1], "counted up as the subscription starts", file: file, line: line)
        XCTAssertEqual(fast, slow, file: file, line: line)
    }
}
