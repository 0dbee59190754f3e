// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTP
import HTTPTestSupport
import ProcessTestSupport
import StreamServiceConcurrency
import XCTest

/// The receiver the exporter tests trust, checked once against the reference: PyPI's OpenTelemetry
/// SDK and its OTLP/HTTP exporter (Tests/OTLPReceiver/reference_export.py) send two spans, gzip,
/// and the receiver must report exactly what the reference says it sent.
final class ReceiverCrossCheckTests: XCTestCase {
    func testTheReceiverDecodesWhatTheReferenceExporterSends() throws {
        let receiver = try OTLPReceiver()
        let script = OTLPReceiver.packageRoot.appendingPathComponent("Tests/OTLPReceiver/reference_export.py").path
        let run = try ChildProcess.run(try OTLPReceiver.python(), [script, receiver.tracesURL], within: 60)
        XCTAssertEqual(run.termination, .exited(0), run.errorOutput)
        let ids = run.output.split(whereSeparator: \.isWhitespace).map(String.init)
        XCTAssertEqual(ids.count, 3, run.output)
        let (traceID, parentID, childID) = (ids[0], ids[1], ids[2])
        waitUntil("both spans arrived", timeout: 10) { receiver.spans.count == 2 }
        let request = try XCTUnwrap(receiver.requests.first)
        XCTAssertEqual(request.content_type, "application/x-protobuf")
        XCTAssertEqual(request.content_encoding, "gzip")
        XCTAssertNil(request.error)
        XCTAssertEqual(request.resource_spans?.first?.resource["service.name"], .string("reference"))
        let parent = try XCTUnwrap(receiver.spans.first { $0.span_id == parentID })
        let child = try XCTUnwrap(receiver.spans.first { $0.span_id == childID })
        XCTAssertEqual(parent.trace_id, traceID)
        XCTAssertEqual(child.trace_id, traceID)
        XCTAssertEqual(child.parent_span_id, parentID)
        XCTAssertEqual(parent.parent_span_id, "")
        XCTAssertEqual(parent.kind, 2, "SERVER")
        XCTAssertEqual(child.kind, 3, "CLIENT")
        XCTAssertEqual(parent.name, "GET /users")
        XCTAssertEqual(parent.attributes["http.request.method"], .string("GET"))
        XCTAssertEqual(parent.attributes["http.response.status_code"], .int(200))
        XCTAssertEqual(child.events.first?.name, "retry")
        XCTAssertEqual(child.events.first?.attributes["attempt"], .int(2))
    }

    func testTheReceiverRefusesJSONIdsThatAreNotLowercaseHex() throws {
        let receiver = try OTLPReceiver()
        // What an exporter following proto3's usual JSON mapping would send: base64 ids.
        let body = #"{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"CvdlGRbNQ92ESOshHIAxnA==","spanId":"t61rcWkgMzE=","name":"x","kind":2}]}]}]}"#
        let request = HTTPClientRequest(method: .post, url: URL(string: receiver.tracesURL)!, headers: ["Content-Type": "application/json"], body: Array(body.utf8))
        let status = Locked<Int?>(nil)
        let watching = HTTPClient().send(request).watch(data: { response in status.withLock { $0 = response.status.code } })
        defer { watching.dispose() }
        waitUntil("the receiver answered", timeout: 10) { status.withLock { $0 } != nil }
        XCTAssertEqual(status.withLock { $0 }, 400)
        XCTAssertTrue(receiver.requests.first?.error?.contains("lowercase hex") ?? false, String(describing: receiver.requests.first?.error))
    }
}
