// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Domain
import Foundation
import HTTP
import HTTPTestSupport
import InMemoryTracing
import ProcessTestSupport
import StreamServiceConcurrency
import Telemetry
import Tracing
import TracingTestSupport
import XCTest
@testable import Server

/// A request's trace as an operator reads it (OpenTelemetry's stable HTTP names): one SERVER span
/// named after the route, the child of the caller's `traceparent`; under it the pipeline's
/// stages (INTERNAL) and the upstream exchanges (CLIENT), over HTTP/1.1 and HTTP/2 alike.
final class RequestTracingTests: XCTestCase {
    static let curl = "/usr/bin/curl"

    private func app(_ tracer: W3CTestTracer, configure: (inout ServiceConfiguration) -> Void = { _ in }) throws -> AppHarness {
        try AppHarness(self, hub: PipelineEventHubs.fresh(), tracer: tracer, configure: configure)
    }

    /// Checks the span tree of one `/users?limit=3` answer (the demo upstream): SERVER → toArray
    /// → (CLIENT users list, INTERNAL avatars → 3 CLIENT avatars).
    private func assertUsersTree(_ trace: RecordedTrace, parentSpanID: String?, protocolVersion: String, port: Int?, file: StaticString = #filePath, line: UInt = #line) throws {
        let server = try XCTUnwrap(trace.server, trace.text, file: file, line: line)
        XCTAssertEqual(server.operationName, "GET /users", file: file, line: line)
        XCTAssertEqual(server.parentSpanID, parentSpanID, "the caller's span is the SERVER span's parent", file: file, line: line)
        XCTAssertEqual(server.attribute("http.request.method"), "GET", file: file, line: line)
        XCTAssertEqual(server.attribute("url.path"), "/users", file: file, line: line)
        XCTAssertEqual(server.attribute("http.route"), "/users", file: file, line: line)
        XCTAssertEqual(server.attribute("http.response.status_code"), "200", file: file, line: line)
        XCTAssertEqual(server.attribute("network.protocol.version"), protocolVersion, file: file, line: line)
        XCTAssertNotNil(server.attribute("server.address"), file: file, line: line)
        if let port { XCTAssertEqual(server.attribute("server.port"), String(port), file: file, line: line) }
        XCTAssertNil(server.attribute("error.type"), file: file, line: line)

        let toArray = try XCTUnwrap(trace.child(of: server, named: "toArray", kind: .internal), trace.text, file: file, line: line)
        let list = try XCTUnwrap(trace.children(of: toArray).first { $0.kind == .client }, trace.text, file: file, line: line)
        XCTAssertEqual(list.attribute("streamservice.upstream.stage"), "users", file: file, line: line)
        XCTAssertEqual(list.attribute("http.request.method"), "GET", file: file, line: line)
        XCTAssertEqual(list.attribute("http.response.status_code"), "200", file: file, line: line)
        XCTAssertEqual(list.attribute("server.address"), "api.demo.invalid", file: file, line: line)
        XCTAssertTrue(list.attribute("url.full")?.hasPrefix("http://api.demo.invalid") == true, list.attribute("url.full") ?? "none", file: file, line: line)
        XCTAssertNotNil(list.attribute("server.port"), file: file, line: line)
        XCTAssertEqual(list.attribute("streamservice.upstream.single_flight"), "led", file: file, line: line)
        XCTAssertNotNil(list.attribute("streamservice.upstream.cache"), file: file, line: line)

        let avatars = try XCTUnwrap(trace.child(of: toArray, named: "avatars", kind: .internal), trace.text, file: file, line: line)
        XCTAssertEqual(avatars.attribute("streamservice.fan_out.users"), "3", file: file, line: line)
        // One exchange per user answered with its image; the demo sends some avatars through a
        // redirect, whose hop is an exchange (a CLIENT span) of its own beside the first.
        let fetches = trace.children(of: avatars)
        XCTAssertEqual(Set(fetches.map(\.kind)), [.client], file: file, line: line)
        XCTAssertEqual(Set(fetches.compactMap { $0.attribute("streamservice.upstream.stage") }), ["avatar"], file: file, line: line)
        let images = fetches.filter { $0.attribute("http.response.status_code") == "200" }
        XCTAssertEqual(images.count, 3, trace.text, file: file, line: line)
        XCTAssertEqual(Set(images.compactMap { $0.attribute("server.address") }), ["avatars.demo.invalid"], file: file, line: line)
        let hops = fetches.filter { $0.attribute("http.response.status_code") != "200" }
        XCTAssertTrue(hops.allSatisfy { $0.attribute("http.response.status_code")?.hasPrefix("3") == true }, trace.text, file: file, line: line)
        XCTAssertEqual(trace.spans.count, 7 + hops.count, "SERVER, toArray, users, avatars, 3 avatars and their redirects:\n\(trace.text)", file: file, line: line)
    }

    func testAUsersRequestOverHTTP1IsAServerSpanOverItsStagesAndUpstreamExchangesChildOfTheCallersTraceparent() throws {
        let tracer = W3CTestTracer()
        let app = try app(tracer)
        let caller = W3C.callerTraceparent()
        let response = try app.get("/users?limit=3", headers: ["traceparent": caller.header])
        XCTAssertEqual(response.status, 200, response.bodyText)
        try assertUsersTree(RecordedTrace(tracer, traceID: caller.traceID, test: self), parentSpanID: caller.parentSpanID, protocolVersion: "1.1", port: 80)
    }

    func testAUsersRequestOverH2IsTracedAsOverHTTP1() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.curl) else { return XCTFail("curl is missing (apt-get install -y curl; scripts/test installs it)") }
        let tracer = W3CTestTracer()
        let app = try app(tracer)
        let caller = W3C.callerTraceparent()
        let result = try ChildProcess.run(Self.curl, [
            "-sS", "--http2-prior-knowledge", "-H", "traceparent: \(caller.header)", "http://127.0.0.1:\(app.port)/users?limit=3",
        ])
        XCTAssertTrue(result.output.hasPrefix("["), result.output + result.errorOutput)
        try assertUsersTree(RecordedTrace(tracer, traceID: caller.traceID, test: self), parentSpanID: caller.parentSpanID, protocolVersion: "2", port: app.port)
    }

    func testARequestWithoutTraceparentStartsATraceOfItsOwn() throws {
        let tracer = W3CTestTracer()
        let app = try app(tracer)
        XCTAssertEqual(try app.get("/health").status, 200)
        waitUntil("the SERVER span of /health ended") { tracer.finishedSpans.contains { $0.kind == .server } }
        let server = try XCTUnwrap(tracer.finishedSpans.first { $0.kind == .server })
        XCTAssertEqual(server.operationName, "GET /health")
        XCTAssertNil(server.parentSpanID)
        XCTAssertEqual(server.traceID.count, 32)
    }

    func testASkippedExtractionBeginsTheSameServerSpansAsItsTwinThatExtractsEveryRequestOverHTTP1AndH2() throws {
        // The exporter's tracer extracts nothing without `traceparent` (`TraceparentExtracting`):
        // an HTTP/1.1 request the parser saw none in is not searched. Behind a wrapper without
        // that promise every request is (the slow twin); HTTP/2 requests always are.
        guard FileManager.default.isExecutableFile(atPath: Self.curl) else { return XCTFail("curl is missing (apt-get install -y curl; scripts/test installs it)") }
        let caller = W3C.callerTraceparent()
        let cases: [(name: String, fields: [String: String])] = [
            ("none", [:]),
            ("traceparent", ["traceparent": caller.header]),
            ("spelled otherwise, with tracestate", ["TraceParent": caller.header, "tracestate": "vendor=abc"]),
            ("tracestate alone", ["tracestate": "vendor=abc"]),
            ("malformed", ["traceparent": "00-not-a-trace-01"]),
        ]
        var begunBy: [String: [String]] = [:]
        for name in ["skipping", "extracting"] {
            let processor = RecordedSpans()
            let base = OTelTracer(sampler: .default, processor: processor)
            let tracer: any Tracer = name == "skipping" ? base : BindingTwin(base: base)
            let app = try AppHarness(self, hub: PipelineEventHubs.fresh(), tracer: tracer)
            var begun: [String] = []
            for version in ["1.1", "2"] {
                for (fieldsName, fields) in cases {
                    let servers = processor.spans.filter { $0.kind == .server }.count
                    if version == "2" {
                        let headers = fields.flatMap { ["-H", "\($0.key): \($0.value)"] }
                        let result = try ChildProcess.run(Self.curl, ["-sS", "--http2-prior-knowledge"] + headers + ["http://127.0.0.1:\(app.port)/health"])
                        XCTAssertEqual(result.errorOutput, "", "\(name) \(fieldsName)")
                    } else {
                        XCTAssertEqual(try app.get("/health", headers: fields).status, 200, "\(name) \(fieldsName)")
                    }
                    waitUntil("\(name) \(fieldsName): the SERVER span has ended") { processor.spans.filter { $0.kind == .server }.count > servers }
                    let server = try XCTUnwrap(processor.spans.last { $0.kind == .server })
                    let trace = server.context.traceID.description == caller.traceID ? "the caller's trace" : "a trace of its own"
                    let parent = server.parentSpanID.map { "under \($0)" } ?? "a root"
                    begun.append("HTTP/\(version) \(fieldsName): \(server.name), \(parent) in \(trace), tracestate \(server.context.traceState ?? "none")")
                }
            }
            begunBy[name] = begun
        }
        let joined = begunBy["skipping"]?.joined(separator: "\n") ?? ""
        XCTAssertEqual(begunBy["skipping"], begunBy["extracting"])
        XCTAssertEqual(begunBy["skipping"]?.filter { $0.contains("under \(caller.parentSpanID) in the caller's trace") }.count, 4, joined)
        XCTAssertEqual(begunBy["skipping"]?.filter { $0.contains("a root in a trace of its own, tracestate none") }.count, 6, joined)
    }

    func testAMalformedTraceparentIsIgnoredAndTheRequestAnsweredInATraceOfItsOwn() throws {
        let tracer = W3CTestTracer()
        let app = try app(tracer)
        XCTAssertEqual(try app.get("/health", headers: ["traceparent": "00-not-a-trace-01"]).status, 200)
        waitUntil("the SERVER span of /health ended") { tracer.finishedSpans.contains { $0.kind == .server } }
        XCTAssertNil(tracer.finishedSpans.first { $0.kind == .server }?.parentSpanID)
    }

    func testTheUpstreamReceivesTraceparentNamingTheClientSpanOfEachExchange() throws {
        let tracer = W3CTestTracer()
        let upstream = try GitHubConventionsTests.userAndAvatar()
        let app = try app(tracer) { $0.upstream = upstream.url }
        let caller = W3C.callerTraceparent()
        XCTAssertEqual(try app.get("/users/ada1/avatar", headers: ["traceparent": caller.header]).status, 200)
        let trace = RecordedTrace(tracer, traceID: caller.traceID, test: self) { spans in spans.filter { $0.kind == .client }.count == 2 }
        let clients = trace.spans.filter { $0.kind == .client }
        let sent = upstream.requests
        XCTAssertEqual(sent.map(\.path), ["/users/ada1", "/ada1.png"])
        for request in sent {
            let identity = try XCTUnwrap(request.traceparent.flatMap(TraceIdentity.init(traceparent:)), "no traceparent on \(request.path)")
            XCTAssertEqual(identity.traceID, caller.traceID, request.path)
            let span = try XCTUnwrap(clients.first { $0.spanID == identity.spanID }, "\(request.path) names no CLIENT span:\n\(trace.text)")
            XCTAssertEqual(span.attribute("url.full"), upstream.url.absoluteString + request.path)
        }
    }

    func testAnUnsampledCallersTraceGoesUpstreamWithFlagsZeroAndNothingIsRecorded() throws {
        // The exporter's tracer with the default sampler (parent-based): the caller's flags 00 decide.
        let tracer = OTelTracer(sampler: .default, processor: NoSpanExpected())
        let upstream = try GitHubConventionsTests.userAndAvatar()
        let app = try AppHarness(self, hub: PipelineEventHubs.fresh(), tracer: tracer) { $0.upstream = upstream.url }
        let caller = W3C.callerTraceparent()
        let unsampled = "00-\(caller.traceID)-b7ad6b7169203331-00"
        XCTAssertEqual(try app.get("/users/ada1/avatar", headers: ["traceparent": unsampled]).status, 200)
        let sent = upstream.requests
        XCTAssertEqual(sent.map(\.path), ["/users/ada1", "/ada1.png"])
        for request in sent {
            let identity = try XCTUnwrap(request.traceparent.flatMap(TraceIdentity.init(traceparent:)), "no traceparent on \(request.path)")
            XCTAssertEqual(identity.traceID, caller.traceID, request.path)
            XCTAssertFalse(identity.sampled, request.path)
            XCTAssertNotEqual(identity.spanID, "b7ad6b7169203331", "\(request.path): this service's span goes on, not the caller's")
        }
    }

    func testAnUnsampledRequestCarriedSendsUpstreamWhatItsBoundTwinSends() throws {
        // The exporter's tracer carries an unsampled request's context on the request
        // (`UnrecordedTrace`); behind a wrapper without that promise the context is bound and
        // every exchange begins its span in it (the slow twin).
        let caller = W3C.callerTraceparent()
        let unsampled = "00-\(caller.traceID)-b7ad6b7169203331-00"
        var sentBy: [String: [(path: String, traceparent: String?)]] = [:]
        let twins: [(String, any Tracer)] = [
            ("carried", OTelTracer(sampler: .default, processor: NoSpanExpected())),
            ("bound", BindingTwin(base: OTelTracer(sampler: .default, processor: NoSpanExpected()))),
        ]
        for (name, tracer) in twins {
            let upstream = try GitHubConventionsTests.userAndAvatar()
            let app = try AppHarness(self, hub: PipelineEventHubs.fresh(), tracer: tracer) { $0.upstream = upstream.url }
            XCTAssertEqual(try app.get("/users/ada1/avatar", headers: ["traceparent": unsampled]).status, 200, name)
            sentBy[name] = upstream.requests.map { ($0.path, $0.traceparent) }
        }
        for (name, sent) in sentBy {
            XCTAssertEqual(sent.map(\.path), ["/users/ada1", "/ada1.png"], name)
            let identities = try sent.map { try XCTUnwrap($0.traceparent.flatMap(TraceIdentity.init(traceparent:)), "\(name): no traceparent on \($0.path)") }
            XCTAssertEqual(Set(identities.map(\.traceID)), [caller.traceID], name)
            XCTAssertEqual(Set(identities.map(\.sampled)), [false], name)
            XCTAssertEqual(Set(identities.map(\.spanID)).count, 1, "\(name): the request's one span id on every exchange")
            XCTAssertNotEqual(identities.first?.spanID, "b7ad6b7169203331", name)
        }
    }

    func testOwnSpansRecordedDirectlyEndAsTheirTwinsThroughTheSpanAPIAndSendTheSameFields() throws {
        // The exporter's tracer hands this service's spans their recording (`startRecordedSpan`):
        // they inject, take attributes and end through it. Behind a wrapper that is a plain
        // `Tracer` the same spans go through the span API and `inject` (the slow twin).
        let caller = W3C.callerTraceparent()
        var endedBy: [String: [String]] = [:]
        for name in ["direct", "span API"] {
            let processor = RecordedSpans()
            let base = OTelTracer(sampler: .default, processor: processor)
            let tracer: any Tracer = name == "direct" ? base : BindingTwin(base: base)
            let upstream = try GitHubConventionsTests.userAndAvatar()
            let app = try AppHarness(self, hub: PipelineEventHubs.fresh(), tracer: tracer) { $0.upstream = upstream.url }
            let headers = ["traceparent": caller.header, "tracestate": "vendor=abc,other=1"]
            XCTAssertEqual(try app.get("/users/ada1/avatar", headers: headers).status, 200, name)
            waitUntil("\(name): the SERVER span has ended") { processor.spans.contains { $0.kind == .server } }
            let records = processor.spans
            let sent = upstream.requests
            XCTAssertEqual(sent.map(\.path), ["/users/ada1", "/ada1.png"], name)
            for request in sent {
                let identity = try XCTUnwrap(request.traceparent.flatMap(TraceIdentity.init(traceparent:)), "\(name): no traceparent on \(request.path)")
                let span = try XCTUnwrap(records.first { $0.context.spanID.description == identity.spanID }, "\(name): \(request.path) names no span")
                XCTAssertEqual(span.kind, .client, name)
                XCTAssertEqual(identity.traceID, caller.traceID, name)
                XCTAssertEqual(request.tracestate, "vendor=abc,other=1", name)
            }
            // The upstream's address differs between the two runs (a server each): named alike.
            let url = upstream.url.absoluteString, port = "server.port=int64(\(upstream.url.port ?? 0))"
            endedBy[name] = records.map { record in
                let parent = records.first { $0.context.spanID == record.parentSpanID }.map { "\($0.kind) \($0.name)" } ?? "caller"
                var attributes: [String] = []
                record.forEachAttribute { key, value in attributes.append("\(key)=\(value)") }
                let listed = attributes.sorted().joined(separator: ", ")
                    .replacingOccurrences(of: url, with: "UPSTREAM").replacingOccurrences(of: port, with: "server.port=UPSTREAM")
                let status = record.status.map { "\($0.code)" } ?? "unset"
                return "\(record.kind) \(record.name) ← \(parent) \(status) \(record.context.traceState ?? "") [\(listed)]"
            }.sorted()
        }
        XCTAssertEqual(endedBy["direct"]?.filter { $0.hasPrefix("client") }.count, 2, endedBy["direct"]?.joined(separator: "\n") ?? "")
        XCTAssertEqual(endedBy["direct"], endedBy["span API"])
    }

    func testRetriesAfter503sAreEventsOfTheClientSpanAndEveryAttemptCarriesItsTraceparent() throws {
        let tracer = W3CTestTracer()
        let failures = StreamServiceConcurrencyCounter()
        let upstream = try GitHubConventionsTests.ScriptedUpstream { request, host in
            if request.path == "/users/ada1", failures.next() <= 2 { return GitHubConventionsTests.json(503, #"{"message":"busy"}"#) }
            return request.path == "/users/ada1"
                ? GitHubConventionsTests.json(200, #"{"login":"ada1","id":1,"avatar_url":"http://\#(host)/ada1.png"}"#)
                : Response(status: .ok, headers: ["Content-Type": "image/png"], body: .bytes([1, 2, 3]))
        }
        let app = try app(tracer) { $0.upstream = upstream.url }
        let caller = W3C.callerTraceparent()
        XCTAssertEqual(try app.get("/users/ada1/avatar", headers: ["traceparent": caller.header]).status, 200)
        let trace = RecordedTrace(tracer, traceID: caller.traceID, test: self) { spans in spans.filter { $0.kind == .client }.count == 2 }
        let user = try XCTUnwrap(trace.spans.first { $0.kind == .client && $0.attribute("streamservice.upstream.stage") == "user" }, trace.text)
        XCTAssertEqual(user.events.map(\.name), ["retry", "retry"])
        XCTAssertEqual(user.events.compactMap { $0.attributes.text("error.type") }, ["503", "503"])
        XCTAssertEqual(user.attribute("http.request.resend_count"), "2")
        XCTAssertEqual(user.attribute("http.response.status_code"), "200")
        let attempts = upstream.requests.filter { $0.path == "/users/ada1" }
        XCTAssertEqual(attempts.count, 3)
        XCTAssertEqual(Set(attempts.compactMap(\.traceparent)).count, 1, "the three attempts send the one CLIENT span's context")
        XCTAssertEqual(attempts.first?.traceparent.flatMap(TraceIdentity.init(traceparent:))?.spanID, user.spanID)
    }

    func testAnUpstreamFailureMarksTheServerAndClientSpansWithTheirErrorType() throws {
        let tracer = W3CTestTracer()
        let upstream = try GitHubConventionsTests.ScriptedUpstream { _, _ in GitHubConventionsTests.json(500, #"{"message":"broken"}"#) }
        let app = try app(tracer) {
            $0.upstream = upstream.url
            $0.upstreamRetries = 0
        }
        let caller = W3C.callerTraceparent()
        let status = try app.get("/users/ada1", headers: ["traceparent": caller.header]).status
        XCTAssertGreaterThanOrEqual(status, 500)
        let trace = RecordedTrace(tracer, traceID: caller.traceID, test: self)
        let server = try XCTUnwrap(trace.server)
        XCTAssertEqual(server.operationName, "GET /users/{login}")
        XCTAssertEqual(server.attribute("error.type"), String(status))
        XCTAssertEqual(server.status?.code, .error)
        let client = try XCTUnwrap(trace.spans.first { $0.kind == .client }, trace.text)
        XCTAssertEqual(client.attribute("error.type"), "500")
    }

    func testAProfileIsAZipSpanOverItsUserAndReposExchanges() throws {
        let tracer = W3CTestTracer()
        let app = try app(tracer)
        let caller = W3C.callerTraceparent()
        let login = try XCTUnwrap(app.get("/users?limit=1").jsonArray?.first?["login"] as? String)
        XCTAssertEqual(try app.get("/users/\(login)", headers: ["traceparent": caller.header]).status, 200)
        let trace = RecordedTrace(tracer, traceID: caller.traceID, test: self)
        let zip = try XCTUnwrap(trace.child(of: trace.server, named: "zip", kind: .internal), trace.text)
        XCTAssertEqual(Set(trace.children(of: zip).compactMap { $0.attribute("streamservice.upstream.stage") }), ["user", "repos"], trace.text)
    }

    func testARepeatedRequestsExchangesAreAnsweredByTheCacheAndSaySo() throws {
        let tracer = W3CTestTracer()
        let app = try app(tracer)
        XCTAssertEqual(try app.get("/users?limit=1").status, 200)
        let caller = W3C.callerTraceparent()
        XCTAssertEqual(try app.get("/users?limit=1", headers: ["traceparent": caller.header]).status, 200)
        let trace = RecordedTrace(tracer, traceID: caller.traceID, test: self)
        let clients = trace.spans.filter { $0.kind == .client }
        XCTAssertEqual(clients.count, 2, trace.text)
        XCTAssertEqual(clients.compactMap { $0.attribute("streamservice.upstream.cache") }, ["hit", "hit"], "revalidated with a 304")
    }

    func testAnEventStreamCutByItsClientEndsItsServerSpan() throws {
        let tracer = W3CTestTracer()
        let app = try app(tracer)
        let caller = W3C.callerTraceparent()
        do {
            // Its socket is closed when it goes (deinit): the client hangs up mid-stream.
            let client = try SSETestClient(port: app.port, target: "/events", headers: ["traceparent": caller.header])
            XCTAssertEqual(client.status, 200)
        }
        let server = try XCTUnwrap(RecordedTrace(tracer, traceID: caller.traceID, test: self).server)
        XCTAssertEqual(server.operationName, "GET /events")
        XCTAssertEqual(server.attribute("http.response.status_code"), "200")
        XCTAssertEqual(server.attribute("streamservice.response.completed"), "false")
    }

    func testAnExchangeWhoseCallerHangsUpEndsItsClientSpanAsCancelled() throws {
        let tracer = W3CTestTracer()
        let asked = StreamServiceConcurrency.Locked(false)
        // An upstream that holds every answer: the exchange ends only by its caller going away.
        let upstream = try TestServer(router: Router { _ in
            asked.withLock { $0 = true }
            return .never()
        })
        let app = try app(tracer) {
            $0.upstream = URL(string: "http://127.0.0.1:\(upstream.port)")!
            $0.upstreamRetries = 0
        }
        let caller = W3C.callerTraceparent()
        do {
            // Its socket is closed when it goes (deinit): the caller hangs up mid-exchange.
            let client = try app.client()
            try client.send("GET /users/ada1 HTTP/1.1\r\nHost: localhost\r\ntraceparent: \(caller.header)\r\n\r\n")
            waitUntil("the upstream has the request") { asked.withLock { $0 } }
        }
        let trace = RecordedTrace(tracer, traceID: caller.traceID, test: self) { spans in spans.contains { $0.kind == .client } }
        let client = try XCTUnwrap(trace.spans.first { $0.kind == .client }, trace.text)
        XCTAssertEqual(client.attribute("streamservice.upstream.cancelled"), "true", trace.text)
        XCTAssertNil(client.attribute("http.response.status_code"), trace.text)
    }

    func testTheAccessLogLineNamesTheTraceAndTheServerSpan() throws {
        let tracer = W3CTestTracer()
        let app = try app(tracer)
        let caller = W3C.callerTraceparent()
        XCTAssertEqual(try app.get("/health", headers: ["traceparent": caller.header]).status, 200)
        let line = try XCTUnwrap(app.accessLogLines(count: 1).first)
        let server = try XCTUnwrap(RecordedTrace(tracer, traceID: caller.traceID, test: self).server)
        XCTAssertEqual(line["trace_id"] as? String, caller.traceID)
        XCTAssertEqual(line["span_id"] as? String, server.spanID)
    }

    func testWithoutATracerTheAccessLogLineNamesNoTrace() throws {
        let app = try AppHarness(self, hub: PipelineEventHubs.fresh())
        XCTAssertEqual(try app.get("/health", headers: ["traceparent": W3C.callerTraceparent().header]).status, 200)
        let line = try XCTUnwrap(app.accessLogLines(count: 1).first)
        XCTAssertNil(line["trace_id"])
        XCTAssertNil(line["span_id"])
    }

    func testThePipelineEventsOfATracedRequestCarryItsTraceId() throws {
        let tracer = W3CTestTracer()
        let app = try app(tracer)
        let events = try SSETestClient(port: app.port, target: "/events?pipeline=users")
        XCTAssertEqual(events.status, 200)
        let caller = W3C.callerTraceparent()
        XCTAssertEqual(try app.get("/users?limit=1", headers: ["traceparent": caller.header]).status, 200)
        let received = try events.events(3)
        XCTAssertEqual(Set(received.compactMap { $0.json["traceId"] as? String }), [caller.traceID])
        XCTAssertEqual(received.compactMap { $0.json["traceId"] }.count, 3)
    }

    func testThePageLinksARunsTraceThroughTheOperatorsTemplate() throws {
        let app = try AppHarness(self, hub: PipelineEventHubs.fresh()) { $0.traceLinkTemplate = "http://jaeger.local:16686/trace/{traceId}?x=1&y=2" }
        let page = try app.get("/").bodyText
        XCTAssertTrue(page.contains(#"<meta name="trace-link-template" content="http://jaeger.local:16686/trace/{traceId}?x=1&amp;y=2">"#), page)
        let script = try app.get("/page.js").bodyText
        XCTAssertTrue(script.contains("trace-link-template") && script.contains("event.traceId"), "page.js reads the template and the events' trace id")
    }

    func testATraceLinkTemplateWithoutTheTraceIdIsRefusedNamingTheFlag() {
        XCTAssertThrowsError(try ServiceConfiguration.resolve(flags: [.traceLinkTemplate: "http://jaeger.local/trace/"], environment: [:])) { error in
            XCTAssertTrue("\(error)".contains("--trace-link-template"), "\(error)")
        }
        XCTAssertEqual(
            try ServiceConfiguration.resolve(flags: [:], environment: ["TRACE_LINK_TEMPLATE": "https://tempo.local/{traceId}"]).traceLinkTemplate,
            "https://tempo.local/{traceId}")
    }
}

/// A count shared by an upstream's handler (each call the next number, from 1).
final class StreamServiceConcurrencyCounter: Sendable {
    private let count = StreamServiceConcurrency.Locked(0)

    func next() -> Int {
        count.withLock { value in
            value += 1
            return value
        }
    }
}

enum PipelineEventHubs {
    /// A hub of the test's own, so other tests' runs do not reach its `/events`.
    static func fresh() -> PipelineEventHub { PipelineEventHub() }
}

/// A span processor no span may reach: a test of an unsampled trace fails on the first one recorded.
private final class NoSpanExpected: SpanProcessor {
    func onEnd(_ span: SpanRecord) { XCTFail("span \(span.name) was recorded") }
    func forceFlush(completion: @escaping @Sendable () -> Void) { completion() }
    func shutdown(completion: @escaping @Sendable () -> Void) { completion() }
}


/// `base` without its promise to keep an unsampled span's context for the spans under it
/// (`UnrecordedContextKeeping`): the server binds an unsampled request's context, as a sampled one's.
private struct BindingTwin: Tracer {
    let base: OTelTracer

    func startSpan<Instant: TracerInstant>(
        _ operationName: String, context: @autoclosure () -> ServiceContext, ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant, function: String, file fileID: String, line: UInt
    ) -> OTelSpan {
        base.startSpan(operationName, context: context(), ofKind: kind, at: instant(), function: function, file: fileID, line: line)
    }

    func forceFlush() { base.forceFlush() }

    func extract<Carrier, Extract: Extractor>(_ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract)
    where Extract.Carrier == Carrier {
        base.extract(carrier, into: &context, using: extractor)
    }

    func inject<Carrier, Inject: Injector>(_ context: ServiceContext, into carrier: inout Carrier, using injector: Inject)
    where Inject.Carrier == Carrier {
        base.inject(context, into: &carrier, using: injector)
    }
}
