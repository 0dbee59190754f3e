// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Domain
import Foundation
import HTTPTestSupport
import Telemetry
import XCTest
@testable import Server

/// The span tree of a `/users` request as a real OTLP receiver decodes it (Tests/OTLPReceiver, the
/// OpenTelemetry protocol's own schema), exported by the service's own tracer (`--otel-*`), not read
/// from an in-memory tracer.
final class OTLPEndToEndTests: XCTestCase {
    private typealias Span = OTLPReceiver.Span

    private func attribute(_ span: Span, _ name: String) -> String? {
        switch span.attributes[name] {
        case .string(let text): text
        case .int(let number): String(number)
        case .bool(let flag): String(flag)
        case .double(let number): String(number)
        case .array, nil: nil
        }
    }

    func testAUsersRequestsSpanTreeArrivesAtARealReceiverAsTheServiceExportsIt() throws {
        let receiver = try OTLPReceiver()
        addTeardownBlock { receiver.stop() }
        let app = try AppHarness(self, hub: PipelineEventHub()) {
            var settings = TracingSettings(tracesEndpoint: URL(string: receiver.tracesURL)!)
            settings.limits.scheduleDelay = .milliseconds(100)
            $0.tracing = settings
        }
        let caller = W3C.callerTraceparent()
        XCTAssertEqual(try app.get("/users?limit=3", headers: ["traceparent": caller.header]).status, 200)
        waitUntil("the receiver has the request's SERVER span", timeout: 10) {
            receiver.spans.contains { $0.trace_id == caller.traceID && $0.kind == 2 }
        }
        let spans = receiver.spans.filter { $0.trace_id == caller.traceID }
        let tree = spans.map { "\($0.kind) \($0.name) \($0.span_id) ← \($0.parent_span_id)" }.joined(separator: "\n")
        let server = try XCTUnwrap(spans.first { $0.kind == 2 }, tree)
        XCTAssertEqual(server.name, "GET /users")
        XCTAssertEqual(server.parent_span_id, caller.parentSpanID, "the caller's span is the parent")
        XCTAssertEqual(attribute(server, "http.route"), "/users")
        XCTAssertEqual(attribute(server, "http.request.method"), "GET")
        XCTAssertEqual(attribute(server, "http.response.status_code"), "200")
        XCTAssertEqual(attribute(server, "network.protocol.version"), "1.1")
        let children = { (parent: Span) in spans.filter { $0.parent_span_id == parent.span_id } }
        let toArray = try XCTUnwrap(children(server).first { $0.name == "toArray" && $0.kind == 1 }, tree)
        let list = try XCTUnwrap(children(toArray).first { $0.kind == 3 }, tree)
        XCTAssertEqual(attribute(list, "streamservice.upstream.stage"), "users")
        XCTAssertEqual(attribute(list, "server.address"), "api.demo.invalid")
        XCTAssertTrue(attribute(list, "url.full")?.hasPrefix("http://api.demo.invalid/users") == true, tree)
        let avatars = try XCTUnwrap(children(toArray).first { $0.name == "avatars" && $0.kind == 1 }, tree)
        let images = children(avatars).filter { $0.kind == 3 && attribute($0, "http.response.status_code") == "200" }
        XCTAssertEqual(images.count, 3, tree)
        // The access log names the exported SERVER span.
        let line = try XCTUnwrap(app.accessLogLines(count: 1).first)
        XCTAssertEqual(line["trace_id"] as? String, caller.traceID)
        XCTAssertEqual(line["span_id"] as? String, server.span_id)
    }
}
