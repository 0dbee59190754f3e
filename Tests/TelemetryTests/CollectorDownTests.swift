// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTPTestSupport
import StreamServiceConcurrency
import Telemetry
import Tracing
import XCTest

/// A collector that is away costs spans, counted, never memory, and never blocks the span's thread.
final class CollectorDownTests: XCTestCase {
    func testAFullQueueDropsAndCountsInsteadOfGrowing() throws {
        let rig = ExportRig(receiver: nil, endpoint: "http://127.0.0.1:\(try closedPort())/v1/traces") {
            $0.limits.maxQueueSize = 100
            $0.limits.maxExportBatchSize = 10
        }
        let started = ContinuousClock.now
        for index in 0..<5000 { rig.tracer.startSpan("span \(index)").end() }
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(2), "ending spans never waits for the exporter")
        XCTAssertEqual(rig.pipeline.processor.queuedCount, 100)
        XCTAssertEqual(rig.counters.totals.dropped, 4900)
    }

    func testExportsToACollectorThatIsDownFailAfterTheirRetriesAndAreCounted() throws {
        let rig = ExportRig(receiver: nil, endpoint: "http://127.0.0.1:\(try closedPort())/v1/traces") {
            $0.limits.maxExportBatchSize = 10
        }
        for index in 0..<10 { rig.tracer.startSpan("span \(index)").end() }
        waitUntil("five attempts failed", timeout: 20) {
            if rig.pipeline.exporter.progressSoFar.isIdle { rig.scheduler.advance(by: .seconds(1)) }
            return rig.counters.totals.failures == 1
        }
        XCTAssertEqual(rig.pipeline.exporter.progressSoFar.attempts, 5)
        XCTAssertEqual(rig.counters.totals.dropped, 10)
        XCTAssertEqual(rig.counters.totals.exported, 0)
    }

    func testAnExportAttemptThatHangsEndsAtTheTimeout() throws {
        // A listener that accepts and never answers: the receiver, stopped by SIGSTOP.
        let receiver = try OTLPReceiver()
        let rig = ExportRig(receiver: receiver) {
            $0.timeout = .seconds(2)
            $0.limits.maxExportBatchSize = 1
        }
        receiver.pause()
        defer { receiver.resume() }
        rig.tracer.startSpan("stuck").end()
        rig.scheduler.advance(by: .zero)
        waitUntil("the attempt is under way", timeout: 10) { rig.pipeline.exporter.progressSoFar.attempts == 1 }
        XCTAssertNil(rig.pipeline.exporter.progressSoFar.lastDecision)
        rig.scheduler.advance(by: .seconds(2))
        guard case .retry = rig.pipeline.exporter.progressSoFar.lastDecision else {
            return XCTFail("the timed-out attempt is retried: \(String(describing: rig.pipeline.exporter.progressSoFar.lastDecision))")
        }
    }

    func testShutdownFlushesWithinItsDeadlineEvenWhenTheCollectorIsDown() throws {
        let rig = ExportRig(receiver: nil, endpoint: "http://127.0.0.1:\(try closedPort())/v1/traces")
        for index in 0..<3 { rig.tracer.startSpan("span \(index)").end() }
        let done = Locked(false)
        rig.pipeline.shutdown(deadline: .seconds(3)) { done.withLock { $0 = true } }
        rig.scheduler.advance(by: .seconds(3))
        XCTAssertTrue(done.withLock { $0 })
        rig.tracer.startSpan("after shutdown").end()
        waitUntil("spans after shutdown are dropped") { rig.counters.totals.dropped >= 1 }
    }
}
