// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTP
import HTTPTestSupport
import StreamServiceConcurrency
import Telemetry
import Tracing
import XCTest

/// Spans exported to a real OTLP receiver that decodes them with opentelemetry-proto.
final class OTLPExportTests: XCTestCase {
    func testProtobufSpansDecodeWithHexIdsKindsAttributesAndParentage() throws {
        let rig = ExportRig(receiver: try OTLPReceiver())
        let (server, client) = rig.requestLikeTrace()
        rig.passScheduleDelay()
        waitUntil("the receiver has both spans", timeout: 10) { rig.receiver!.spans.count == 2 }
        let request = try XCTUnwrap(rig.receiver!.requests.first)
        XCTAssertEqual(request.path, "/v1/traces")
        XCTAssertEqual(request.content_type, "application/x-protobuf")
        XCTAssertNil(request.error)
        let spans = rig.receiver!.spans
        let serverSpan = try XCTUnwrap(spans.first { $0.kind == 2 })
        let clientSpan = try XCTUnwrap(spans.first { $0.kind == 3 })
        XCTAssertEqual(serverSpan.trace_id, server.context.spanContext!.traceID.description)
        XCTAssertEqual(serverSpan.span_id, server.context.spanContext!.spanID.description)
        XCTAssertEqual(serverSpan.parent_span_id, "")
        XCTAssertEqual(clientSpan.trace_id, serverSpan.trace_id)
        XCTAssertEqual(clientSpan.span_id, client.context.spanContext!.spanID.description)
        XCTAssertEqual(clientSpan.parent_span_id, serverSpan.span_id)
        XCTAssertEqual(serverSpan.name, "GET /users")
        XCTAssertEqual(serverSpan.flags & 0xFF, 1)
        XCTAssertEqual(serverSpan.attributes["http.request.method"], .string("GET"))
        XCTAssertEqual(serverSpan.attributes["http.response.status_code"], .int(200))
        XCTAssertEqual(serverSpan.attributes["server.port"], .int(8080))
        XCTAssertEqual(serverSpan.attributes["retried"], .bool(true))
        XCTAssertEqual(serverSpan.attributes["ratio"], .double(0.5))
        XCTAssertEqual(serverSpan.attributes["tags"], .array([.string("a"), .string("b")]))
        XCTAssertEqual(clientSpan.events.first?.name, "retry")
        XCTAssertEqual(clientSpan.events.first?.attributes["http.request.resend_count"], .int(1))
        XCTAssertEqual(clientSpan.status.code, 2)
        XCTAssertEqual(clientSpan.status.message, "503 then 200")
        XCTAssertLessThanOrEqual(serverSpan.start, serverSpan.end)
        let resource = try XCTUnwrap(request.resource_spans?.first?.resource)
        XCTAssertEqual(resource["service.name"], .string("stream-service"))
        XCTAssertEqual(resource["telemetry.sdk.language"], .string("swift"))
        XCTAssertEqual(request.resource_spans?.first?.scope["name"], "stream-service")
        waitUntil("the spans are counted as exported") { rig.counters.totals.exported == 2 }
    }

    func testAnAttributeListExportsWhatTheSameAttributesSetThroughTheSpanAPIExport() throws {
        let list: SpanAttributeList = [
            "http.request.method": .string("GET"), "server.port": .int64(8080), "retried": .bool(true), "ratio": .double(0.5),
            "tags": .stringArray(["a", "b"]), "small": .int32(7),
        ]
        for json in [false, true] {
            let rig = ExportRig(receiver: try OTLPReceiver()) { if json { $0.wireProtocol = .json } }
            // The fast path: the span keeps the list and the exporter writes it as it is.
            let listed = rig.tracer.startSpan("listed", ofKind: .client)
            list.add(to: listed, taker: rig.tracer)
            listed.end()
            // The slow twins: the same attributes as the span API's dictionary, set or merged.
            let dictionary = rig.tracer.startSpan("dictionary", ofKind: .client)
            dictionary.attributes = list.attributes
            dictionary.end()
            let merged = rig.tracer.startSpan("merged", ofKind: .client)
            list.add(to: merged, taker: nil)
            merged.end()
            // Both ways on one span, in either order: the later value of a key wins.
            let apiThenList = rig.tracer.startSpan("apiThenList", ofKind: .client)
            apiThenList.attributes["http.request.method"] = "POST"
            list.add(to: apiThenList, taker: rig.tracer)
            apiThenList.end()
            let listThenAPI = rig.tracer.startSpan("listThenAPI", ofKind: .client)
            (["retried": .bool(false), "ratio": .double(0.5)] as SpanAttributeList).add(to: listThenAPI, taker: rig.tracer)
            list.add(to: listThenAPI, taker: rig.tracer)
            listThenAPI.attributes["server.port"] = 8080
            listThenAPI.end()
            rig.passScheduleDelay()
            waitUntil("the receiver has the five spans", timeout: 10) { rig.receiver!.spans.count == 5 }
            XCTAssertNil(rig.receiver!.requests.first?.error)
            let exported = Dictionary(uniqueKeysWithValues: rig.receiver!.spans.map { ($0.name, $0.attributes) })
            XCTAssertEqual(exported["listed"]?.count, 6, "json: \(json)")
            XCTAssertEqual(exported["listed"], exported["dictionary"], "json: \(json)")
            XCTAssertEqual(exported["merged"], exported["dictionary"], "json: \(json)")
            XCTAssertEqual(exported["apiThenList"], exported["dictionary"], "json: \(json)")
            XCTAssertEqual(exported["listThenAPI"], exported["dictionary"], "json: \(json)")
        }
    }

    func testAnAttributeLongerThanAOneByteLengthDecodesWhole() throws {
        let rig = ExportRig(receiver: try OTLPReceiver())
        // 20,000 bytes: the lengths of the value, its attribute, the span and the request need
        // three bytes each, where the writer keeps one and moves what it wrote.
        let long = String(repeating: "0123456789", count: 2_000)
        let span = rig.tracer.startSpan("GET /users", ofKind: .server)
        span.attributes["long"] = long
        span.attributes["after"] = "short"
        span.end()
        rig.passScheduleDelay()
        waitUntil("the receiver has the span", timeout: 10) { rig.receiver!.spans.count == 1 }
        XCTAssertNil(rig.receiver!.requests.first?.error)
        let received = try XCTUnwrap(rig.receiver!.spans.first)
        XCTAssertEqual(received.attributes["long"], .string(long))
        XCTAssertEqual(received.attributes["after"], .string("short"))
        XCTAssertEqual(received.name, "GET /users")
    }

    func testJSONSpansCarryLowercaseHexIdsAndIntegerEnums() throws {
        let rig = ExportRig(receiver: try OTLPReceiver()) { $0.wireProtocol = .json }
        let (server, _) = rig.requestLikeTrace()
        rig.passScheduleDelay()
        waitUntil("the receiver has both spans", timeout: 10) { rig.receiver!.spans.count == 2 }
        let request = try XCTUnwrap(rig.receiver!.requests.first)
        XCTAssertEqual(request.content_type, "application/json")
        XCTAssertNil(request.error, "the receiver rejects ids that are not lowercase hex")
        let spans = rig.receiver!.spans
        XCTAssertEqual(Set(spans.map(\.kind)), [2, 3])
        XCTAssertEqual(spans.first { $0.kind == 2 }?.trace_id, server.context.spanContext!.traceID.description)
        XCTAssertEqual(spans.first { $0.kind == 3 }?.parent_span_id, server.context.spanContext!.spanID.description)
        XCTAssertEqual(spans.first { $0.kind == 2 }?.attributes["http.response.status_code"], .int(200))
        XCTAssertEqual(spans.first { $0.kind == 3 }?.status.code, 2)
    }

    func testTheJSONBodyWritesIdsAsHexNotBase64() throws {
        let rig = ExportRig(receiver: nil, endpoint: "http://127.0.0.1:1/v1/traces") { $0.wireProtocol = .json }
        let span = rig.tracer.startSpan("x")
        span.end()
        let record = SpanRecord(
            context: span.context.spanContext!, parentSpanID: SpanID(0x0102030405060708), name: "x", kind: .internal,
            startNanoseconds: 1, endNanoseconds: 2, attributes: [:], events: [], links: [], status: nil)
        let body = String(decoding: rig.pipeline.exporter.encode([record]), as: UTF8.self)
        XCTAssertTrue(body.contains("\"traceId\":\"\(span.context.spanContext!.traceID)\""), body)
        XCTAssertTrue(body.contains("\"parentSpanId\":\"0102030405060708\""), body)
        XCTAssertTrue(body.contains("\"kind\":1"), body)
    }

    func testGzipBodiesAreSentWithContentEncodingAndDecode() throws {
        let rig = ExportRig(receiver: try OTLPReceiver()) { $0.gzip = true }
        _ = rig.requestLikeTrace()
        rig.passScheduleDelay()
        waitUntil("the receiver has both spans", timeout: 10) { rig.receiver!.spans.count == 2 }
        XCTAssertEqual(rig.receiver!.requests.first?.content_encoding, "gzip")
        XCTAssertNil(rig.receiver!.requests.first?.error)
    }

    func testConfiguredHeadersGoWithEveryExport() throws {
        let rig = ExportRig(receiver: try OTLPReceiver()) { $0.headers = [("api-key", "secret 1")] }
        _ = rig.requestLikeTrace()
        rig.passScheduleDelay()
        waitUntil("the receiver got a request", timeout: 10) { rig.receiver!.requests.count == 1 }
        XCTAssertEqual(rig.receiver!.requests.first?.headers["api-key"], "secret 1")
    }

    func testAFullBatchLeavesBeforeTheScheduleDelay() throws {
        let rig = ExportRig(receiver: try OTLPReceiver()) { $0.limits.maxExportBatchSize = 4 }
        for index in 0..<4 { rig.tracer.startSpan("span \(index)").end() }
        rig.scheduler.advance(by: .zero)
        waitUntil("the batch arrived without the delay passing", timeout: 10) { rig.receiver!.spans.count == 4 }
        XCTAssertEqual(rig.scheduler.now, .zero)
    }

    func testBatchesAreNoLargerThanTheBatchSize() throws {
        let rig = ExportRig(receiver: try OTLPReceiver()) { $0.limits.maxExportBatchSize = 3 }
        for index in 0..<7 { rig.tracer.startSpan("span \(index)").end() }
        waitUntil("all seven spans arrived", timeout: 10) {
            // Virtual time moves only between exports: an attempt in flight would otherwise time out.
            if rig.pipeline.exporter.progressSoFar.isIdle { rig.passScheduleDelay() }
            return rig.receiver!.spans.count == 7
        }
        XCTAssertEqual(rig.receiver!.requests.map { $0.resource_spans?.first?.spans.count ?? 0 }, [3, 3, 1])
    }

    func testAForceFlushSendsWhatIsQueuedAndReportsWhenDone() throws {
        let rig = ExportRig(receiver: try OTLPReceiver())
        _ = rig.requestLikeTrace()
        let flushed = Locked(false)
        rig.pipeline.processor.forceFlush { flushed.withLock { $0 = true } }
        waitUntil("the flush reported done", timeout: 10) {
            rig.scheduler.advance(by: .zero)
            return flushed.withLock { $0 }
        }
        XCTAssertEqual(rig.counters.totals.exported, 2)
        XCTAssertEqual(rig.receiver!.spans.count, 2)
    }
}
