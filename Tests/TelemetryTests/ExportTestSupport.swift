// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTP
import HTTPTestSupport
import MetricsTestKit
import Streams
import Telemetry
import Tracing
import XCTest

/// A pipeline exporting to a real receiver, its timers on virtual time.
struct ExportRig {
    let receiver: OTLPReceiver?
    let scheduler = TestScheduler()
    let pipeline: TracingPipeline
    var tracer: OTelTracer { pipeline.tracer }
    var counters: TracingCounters { pipeline.counters }

    /// `configure` adjusts the settings (protocol, gzip, limits, headers) before the pipeline is made.
    init(receiver: OTLPReceiver?, endpoint: String? = nil, configure: (inout TracingSettings) -> Void = { _ in }) {
        self.receiver = receiver
        var settings = TracingSettings(tracesEndpoint: URL(string: endpoint ?? receiver!.tracesURL)!)
        configure(&settings)
        pipeline = TracingPipeline(settings: settings, counters: TracingCounters(factory: TestMetrics()), client: HTTPClient(), scheduler: scheduler)
    }

    /// Ends a server span with a client child, as a request would: returns (server, client).
    func requestLikeTrace() -> (OTelSpan, OTelSpan) {
        let server = tracer.startSpan("GET /users", ofKind: .server)
        server.attributes["http.request.method"] = "GET"
        server.attributes["http.route"] = "/users"
        server.attributes["http.response.status_code"] = 200
        server.attributes["server.port"] = SpanAttribute.int32(8080)
        server.attributes["retried"] = true
        server.attributes["ratio"] = 0.5
        server.attributes["tags"] = ["a", "b"]
        let client = tracer.startSpan("GET", context: server.context, ofKind: .client)
        client.attributes["url.full"] = "http://api.demo.invalid/users?per_page=30"
        client.addEvent(SpanEvent(name: "retry", attributes: ["http.request.resend_count": 1]))
        client.setStatus(SpanStatus(code: .error, message: "503 then 200"))
        client.end()
        server.end()
        return (server, client)
    }

    /// Runs the schedule delay: the queue leaves in batches.
    func passScheduleDelay() {
        scheduler.advance(by: pipeline.settings.limits.scheduleDelay)
    }
}

/// A free loopback port nothing listens on (bound, then closed): a collector that is away.
func closedPort() throws -> Int {
    let receiver = try OTLPReceiver()
    let port = receiver.port
    receiver.stop()
    return port
}
