// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import HTTPTestSupport
import StreamServiceConcurrency
import Telemetry
import Tracing
import TracingTestSupport
import XCTest

/// A library instrumented for swift-distributed-tracing, called from a handler's synchronous code
/// under the service's own tracer, joins the request's trace when the request is not sampled, as
/// when it is: its span is the request's context (same trace, nothing recorded), not a new root.
final class LibrarySpanInUnsampledRequestTests: XCTestCase {
    /// What the handler saw: the request's SERVER span and the library's span begun under it.
    private struct Seen: Sendable {
        let request: TraceIdentity?
        let library: TraceIdentity?
        let libraryRecorded: Bool
    }

    /// Serves one `GET /library` (with `fields` as extra header lines) under an `OTelTracer` with
    /// `sampler`, installed behind `InstrumentationSystem` as the application installs it; returns
    /// what the handler saw and the spans the tracer recorded.
    private func serveOne(sampler: Sampler, fields: String = "") throws -> (seen: Seen, recorded: [SpanRecord]) {
        let processor = RecordedSpans()
        let tracer = OTelTracer(sampler: sampler, processor: processor)
        TracingSystem.install(tracer)
        defer { TracingSystem.uninstall(tracer) }
        let seen = Locked<Seen?>(nil)
        var router = Router()
        router.get("/library") { request in
            withSpan("library work") { span in
                let library = TraceIdentity(of: span.context, tracer: InstrumentationSystem.tracer)
                seen.withLock { $0 = Seen(request: request.trace, library: library, libraryRecorded: span.isRecording) }
            }
            return .just(.text("done"))
        }
        // No tracer given: the server's is the one bootstrapped in `InstrumentationSystem`.
        let server = try TestServer(router: router)
        defer { server.stop() }
        let client = try server.client()
        try client.send("GET /library HTTP/1.1\r\nHost: 127.0.0.1\r\n\(fields)Connection: close\r\n\r\n")
        XCTAssertEqual(try client.readResponse().status, 200)
        return (try XCTUnwrap(seen.withLock { $0 }, "the handler ran no span"), processor.spans)
    }

    func testUnderAnUnsampledCallersTraceparentALibrarySpanInTheHandlerIsInTheRequestsTraceAndNotRecorded() throws {
        let caller = W3C.callerTraceparent()
        let (seen, recorded) = try serveOne(sampler: .default, fields: "traceparent: 00-\(caller.traceID)-\(caller.parentSpanID)-00\r\n")
        let library = try XCTUnwrap(seen.library, "the library's span has no context")
        XCTAssertEqual(library.traceID, caller.traceID, "the library's span is in the caller's trace, not a root of its own")
        XCTAssertEqual(library, seen.request, "unrecorded under the request's SERVER span: the request's context as it is")
        XCTAssertFalse(library.sampled)
        XCTAssertFalse(seen.libraryRecorded)
        XCTAssertEqual(recorded.map(\.name), [], "nothing recorded, so nothing exported")
    }

    func testAtRatioZeroALibrarySpanInTheHandlerIsInTheRequestsTraceAndNotRecorded() throws {
        let (seen, recorded) = try serveOne(sampler: .traceIDRatio(0))
        let request = try XCTUnwrap(seen.request, "the request has no trace")
        let library = try XCTUnwrap(seen.library, "the library's span has no context")
        XCTAssertEqual(library.traceID, request.traceID, "the library's span is in the request's trace, not a root of its own")
        XCTAssertEqual(library, request, "unrecorded under the request's SERVER span: the request's context as it is")
        XCTAssertFalse(library.sampled)
        XCTAssertFalse(seen.libraryRecorded)
        XCTAssertEqual(recorded.map(\.name), [], "nothing recorded, so nothing exported")
    }
}

