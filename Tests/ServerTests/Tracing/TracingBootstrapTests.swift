// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import Logging
import HTTPTestSupport
import Telemetry
import Tracing
import XCTest
@testable import Server

/// The application installs its tracer at start, says so in its first log line, counts in /metrics,
/// and flushes the last spans when it shuts down gracefully.
final class TracingBootstrapTests: XCTestCase {
    func testWithAnEndpointTheTracerIsInstalledAndTheFirstLineSaysSo() throws {
        let receiver = try OTLPReceiver()
        let app = try AppHarness(self) { $0.tracing = TracingSettings(tracesEndpoint: URL(string: receiver.tracesURL)!) }
        let first = try XCTUnwrap(app.logLines().first)
        let tracing = try XCTUnwrap(first["tracing"] as? String)
        XCTAssertTrue(tracing.contains("http/protobuf to \(receiver.tracesURL)"), tracing)
        XCTAssertTrue(tracing.contains("sampler parentbased_always_on"), tracing)
        XCTAssertNotNil(TracingSystem.tracer)
    }

    func testWithoutAnEndpointTheFirstLineSaysTracingIsOff() throws {
        let app = try AppHarness(self)
        XCTAssertEqual(app.logLines().first?["tracing"] as? String, "off (no OTEL_EXPORTER_OTLP_ENDPOINT, or OTEL_SDK_DISABLED=true)")
    }

    func testTheCountersAreOnTheMetricsPage() throws {
        let receiver = try OTLPReceiver()
        let app = try AppHarness(self) { $0.tracing = TracingSettings(tracesEndpoint: URL(string: receiver.tracesURL)!) }
        let page = app.metricsPage { $0.contains("tracing_spans_exported_total") }
        for name in [TracingCounters.exportedName, TracingCounters.droppedName, TracingCounters.failuresName] {
            XCTAssertTrue(page.contains("# HELP \(name)"), name)
        }
        XCTAssertTrue(page.contains("tracing_spans_dropped_total{reason=\"queue_full\"} 0"), page)
    }

    func testAGracefulShutdownExportsTheSpansStillQueued() throws {
        let receiver = try OTLPReceiver()
        var settings = TracingSettings(tracesEndpoint: URL(string: receiver.tracesURL)!)
        settings.limits.scheduleDelay = .seconds(3600)
        var configuration = ServiceConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.tracing = settings
        let application = Application(configuration: configuration, logger: .init(label: "tracing-test") { _ in SwiftLogNoOpLogHandler() })
        try application.start()
        let span = InstrumentationSystem.tracer.startAnySpan("last words", context: .topLevel, ofKind: .internal)
        span.end()
        let stopped = expectation(description: "stopped")
        application.shutdown { stopped.fulfill() }
        wait(for: [stopped], timeout: 15)
        XCTAssertEqual(receiver.spans.map(\.name), ["last words"])
        XCTAssertNil(TracingSystem.tracer, "the stopped application's tracer is uninstalled")
    }

    func testRequestsAreServedWhileTheCollectorIsDown() throws {
        let receiver = try OTLPReceiver()
        receiver.stop()
        let app = try AppHarness(self) { configuration in
            var settings = TracingSettings(tracesEndpoint: URL(string: receiver.tracesURL)!)
            settings.limits.scheduleDelay = .milliseconds(10)
            // The shutdown's flush waits at most one export timeout for the absent collector.
            settings.timeout = .seconds(1)
            configuration.tracing = settings
        }
        for _ in 0..<20 {
            let span = InstrumentationSystem.tracer.startAnySpan("work", context: .topLevel, ofKind: .internal)
            XCTAssertEqual(try app.get("/health").status, 200)
            span.end()
        }
    }
}
