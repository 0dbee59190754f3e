// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import MetricsTestKit
import Streams
import StreamsTesting
import Synchronization
@testable import Telemetry
import Tracing
import XCTest

/// The batch processor's schedule-delay timer: one repeating timer on a scheduler that offers one
/// (`QueueScheduler`), a one-shot timer armed again at each tick elsewhere (its slow twin).
final class BatchTimerTests: XCTestCase {
    /// The virtual times of the exports of spans ended every 70 ms for 350 ms, with a 100 ms delay.
    private func exportTimes(repeating: Bool) -> [Duration] {
        let base = TestScheduler()
        let scheduler: any Scheduler = repeating ? VirtualRepeatingScheduler(base: base) : base
        let exporter = TimedExporter(clock: base)
        var limits = BatchSpanProcessor.Limits()
        limits.scheduleDelay = .milliseconds(100)
        let processor = BatchSpanProcessor(exporter: exporter, limits: limits, counters: TracingCounters(factory: TestMetrics()), scheduler: scheduler)
        let tracer = OTelTracer(sampler: .default, processor: processor)
        for step in 0..<5 {
            tracer.startSpan("step \(step)").end()
            base.advance(by: .milliseconds(70))
        }
        base.advance(by: .milliseconds(300))
        return exporter.times
    }

    func testARepeatingTimerExportsWhenTheTimerArmedAgainAtEachTickDoes() {
        let rearmed = exportTimes(repeating: false)
        XCTAssertEqual(rearmed, [.milliseconds(100), .milliseconds(200), .milliseconds(300)])
        XCTAssertEqual(exportTimes(repeating: true), rearmed)
    }
}

/// Notes the virtual time of each export and delivers it at once.
private final class TimedExporter: SpanExporter {
    private let clock: TestScheduler
    private let exported = Mutex<[Duration]>([])

    init(clock: TestScheduler) {
        self.clock = clock
    }

    var times: [Duration] { exported.withLock { $0 } }

    func export(_ batch: [SpanRecord], completion: @escaping @Sendable (Bool) -> Void) {
        exported.withLock { $0.append(clock.now) }
        completion(true)
    }
}
