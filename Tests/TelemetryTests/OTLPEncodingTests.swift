// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import StreamServiceConcurrency
import Tracing
import TracingTestSupport
import XCTest
@testable import Telemetry

/// The protobuf writer's one-go `KeyValue` (a scalar attribute, its lengths known up front)
/// against its slow twin, the nested writer that length-prefixes each message after writing it.
final class OTLPEncodingTests: XCTestCase {
    func testAScalarAttributeWrittenInOneGoIsByteForByteTheNestedWritersOne() {
        let long = String(repeating: "0123456789", count: 30)
        let values: [SpanAttribute] = [
            .string(""), .string("GET"), .string(long), .string("é ✓"), .int64(0), .int64(1), .int64(200), .int64(-1), .int64(.max), .int64(.min),
            .int32(-5), .int32(.max), .bool(true), .bool(false), .double(0), .double(-1.5), .double(.infinity),
        ]
        for key in ["", "http.response.status_code", long] {
            for value in values {
                var fast = ProtobufWriter()
                OTLPProtobufEncoding.attribute(&fast, 9, key, value)
                var nested = ProtobufWriter()
                OTLPProtobufEncoding.nestedAttribute(&nested, 9, key, value)
                XCTAssertEqual(fast.bytes, nested.bytes, "\(key.prefix(20)) = \(value)")
            }
        }
    }

    func testFixedWidthWordsStoredWholeAreTheBytesWrittenOneByOne() {
        let words: [UInt64] = [0, 1, 0x80, 0x0102_0304_0506_0708, 0xF1F2_F3F4_F5F6_F7F8, .max, 1_700_000_000_000_000_001]
        for word in words {
            for width in [4, 8] {
                var fast = [UInt8](repeating: 0xAA, count: 10), slow = fast
                let fastCount = fast.withUnsafeMutableBufferPointer { ProtobufWriter.littleEndian(word, bytes: width, at: $0.baseAddress! + 1) }
                let slowCount = slow.withUnsafeMutableBufferPointer { ProtobufWriter.littleEndianBytewise(word, bytes: width, at: $0.baseAddress! + 1) }
                XCTAssertEqual(fastCount, slowCount)
                XCTAssertEqual(fast, slow, "little-endian \(width) of \(word)")
            }
            var fast = [UInt8](repeating: 0xAA, count: 10), slow = fast
            _ = fast.withUnsafeMutableBufferPointer { ProtobufWriter.bigEndian(word, at: $0.baseAddress! + 1) }
            _ = slow.withUnsafeMutableBufferPointer { ProtobufWriter.bigEndianBytewise(word, at: $0.baseAddress! + 1) }
            XCTAssertEqual(fast, slow, "big-endian \(word)")
        }
    }

    func testAnOwnStringAttributeIsCountedAndWrittenAsItsEntryIs() {
        let long = String(repeating: "0123456789", count: 30)
        for key in ["", "url.full", long] {
            for value in ["", "https://api.github.com/users?per_page=30", long, "é ✓"] {
                var entry = SpanAttributeList.Entry(key: key, stored: .string(value))
                var keyText = key, valueText = value
                let (slow, fast) = keyText.withUTF8 { keyBytes in
                    valueText.withUTF8 { valueBytes in
                        var own = SizedSpan.OwnString(key: keyBytes, value: valueBytes)
                        return withUnsafePointer(to: &entry) { entry in
                            withUnsafePointer(to: &own) { own in
                                let size = SizedSpan.entrySize(entry)
                                XCTAssertEqual(size, SizedSpan.stringEntrySize(own), "\(key.prefix(20)) = \(value.prefix(20))")
                                var slow = [UInt8](repeating: 0, count: 700)
                                var fast = [UInt8](repeating: 0, count: 700)
                                let slowCount = slow.withUnsafeMutableBufferPointer { SizedSpan.entry(entry, at: $0.baseAddress!) }
                                let fastCount = fast.withUnsafeMutableBufferPointer { SizedSpan.stringEntry(own, at: $0.baseAddress!) }
                                XCTAssertEqual(slowCount, size)
                                return (Array(slow.prefix(slowCount)), Array(fast.prefix(fastCount)))
                            }
                        }
                    }
                }
                XCTAssertEqual(fast, slow, "\(key.prefix(20)) = \(value.prefix(20))")
            }
        }
    }

    func testASizedSpanIsByteForByteTheSpanFieldWriteSpanWrites() {
        let traceID = TraceID(high: 0x0102_0304_0506_0708, low: 0xF1F2_F3F4_F5F6_F7F8)
        let long = String(repeating: "0123456789", count: 30)
        let contexts = [
            SpanContext(traceID: traceID, spanID: SpanID(0x0A0B_0C0D_0E0F_1011), isSampled: true),
            SpanContext(traceID: TraceID(high: 0, low: 1), spanID: SpanID(.max), isSampled: false, traceState: "vendor=a,other=b"),
            SpanContext(traceID: traceID, spanID: SpanID(2), isSampled: true, traceState: ""),
        ]
        let lists: [SpanAttributeList] = [
            [:],
            ["url.full": .string("http://127.0.0.1:1/users?per_page=30"), "http.response.status_code": .int64(200)],
            ["": .string(""), "n": .int64(-1), "m": .int64(.max), "z": .int64(0), "t": .bool(true), "f": .bool(false), "d": .double(-1.5)],
            ["long": .string(long), long: .string("é ✓")],
        ]
        let shared = OTLPProtobufEncoding.EncodedAttributes(["http.request.method": .string("GET"), "server.port": .int64(8080)])
        let statuses: [SpanStatus?] = [nil, SpanStatus(code: .ok), SpanStatus(code: .error), SpanStatus(code: .error, message: long)]
        for context in contexts {
            for parent in [nil, SpanID(7)] {
                for name in ["", "GET", String(repeating: "n", count: 200)] {
                    for (start, end) in [(UInt64(0), UInt64(0)), (1_700_000_000_000_000_000, 1_700_000_000_000_000_001)] {
                        for list in lists {
                            for status in statuses {
                                for shared in [nil, shared] {
                                    var slow = ProtobufWriter(), fast = ProtobufWriter()
                                    OTLPProtobufEncoding.spanField(&slow) {
                                        OTLPProtobufEncoding.writeSpan(
                                            &$0, context: context, parentSpanID: parent, name: name, kind: .client, start: start, end: end,
                                            attributes: [:], list: list, events: [], links: [], status: status, shared: shared)
                                    }
                                    guard
                                        let sized = SizedSpan(
                                            context: context, parentSpanID: parent, name: name, start: start, end: end, attributes: [:],
                                            list: list, events: [], links: [], status: status, shared: shared)
                                    else { return XCTFail("a span of scalars has a sized form") }
                                    fast.write(exactly: sized.fieldLength) { at in
                                        sized.write(
                                            at: at, context: context, parentSpanID: parent, name: name, kind: .client, start: start, end: end,
                                            list: list, status: status, shared: shared)
                                    }
                                    XCTAssertEqual(fast.bytes, slow.bytes, "\(context) \(String(describing: parent)) \(name.count) \(list) \(String(describing: status))")
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    func testASpanWithWhatTheSizedWriterDoesNotWriteHasNoSizedForm() {
        let context = SpanContext(traceID: TraceID(high: 1, low: 2), spanID: SpanID(3), isSampled: true)
        func sized(attributes: SpanAttributes = [:], list: SpanAttributeList = [:], events: [SpanRecord.Event] = [], links: [SpanRecord.Link] = []) -> SizedSpan? {
            SizedSpan(context: context, parentSpanID: nil, name: "x", start: 1, end: 2, attributes: attributes, list: list, events: events, links: links, status: nil, shared: nil)
        }
        XCTAssertNotNil(sized())
        XCTAssertNil(sized(attributes: ["a": "b"]))
        XCTAssertNil(sized(list: ["tags": .stringArray(["a"])]))
        XCTAssertNil(sized(list: ["small": .int32(1)]))
        XCTAssertNil(sized(events: [SpanRecord.Event(name: "e", nanosecondsSinceEpoch: 1, attributes: [:])]))
        XCTAssertNil(sized(links: [SpanRecord.Link(context: context, attributes: [:])]))
    }
}

/// Spans written into their batch's buffer as they end (`BatchSpanProcessor.stream`) against
/// their slow twin, the `SpanRecord`s the same spans make, encoded by `OTLPProtobufEncoding.encode`.
final class StreamedEncodingTests: XCTestCase {
    func testSpansWrittenAsTheyEndFrameTheBodyTheRecordEncoderWritesOfThem() throws {
        let rig = ExportRig(receiver: nil, endpoint: "http://127.0.0.1:\(try closedPort())/v1/traces") { $0.limits.maxExportBatchSize = 3 }
        XCTAssertTrue(rig.pipeline.processor.encodesOnEnd)
        let records = RecordedSpans()
        let streamed = SpanSink(rig.pipeline.processor), recorded = SpanSink(records)
        XCTAssertNotNil(streamed.stream)
        XCTAssertNil(recorded.stream)
        let long = String(repeating: "0123456789", count: 30)
        let traceID = TraceID(high: 0x0102_0304_0506_0708, low: 0x1112_1314_1516_1718)
        let shared = SharedSpanAttributes(["http.request.method": .string("GET"), "server.address": .string("127.0.0.1"), "server.port": .int64(1)])
        let cases: [(String, SpanKind, SpanContext, SpanID?, (RecordingSpan) -> Void)] = [
            ("GET /users", .server, SpanContext(traceID: traceID, spanID: SpanID(1), isSampled: true), nil, { span in
                span.attributes = ["http.request.method": "GET", "server.port": 8080, "ratio": 0.5, "tags": .stringArray(["a", "b"]), "small": .int32(7)]
                span.setStatus(SpanStatus(code: .ok))
            }),
            ("GET", .client, SpanContext(traceID: traceID, spanID: SpanID(2), isSampled: true, traceState: "vendor=a,other=b"), SpanID(1), { span in
                span.addAttributes(["url.full": .string("http://127.0.0.1:1/users?per_page=30"), "http.response.status_code": .int64(503), "retried": .bool(true)])
                span.addAttributes(["streamservice.upstream.cache": .string("miss")])
                span.addEvent(SpanRecord.Event(name: "retry", nanosecondsSinceEpoch: 1_500, attributes: ["streamservice.retry.number": 1]))
                span.setStatus(SpanStatus(code: .error, message: "503 then 200"))
            }),
            ("long", .internal, SpanContext(traceID: traceID, spanID: SpanID(3), isSampled: true), SpanID(2), { span in
                span.addAttributes(["long": .string(long), "é ✓": .string("é ✓")])
                span.addLink(SpanRecord.Link(context: SpanContext(traceID: traceID, spanID: SpanID(9), isSampled: false, traceState: "k=v"), attributes: ["why": "follows"]))
            }),
            ("empty", .producer, SpanContext(traceID: TraceID(high: 0, low: 1), spanID: SpanID(.max), isSampled: true), nil, { _ in }),
            ("shared", .client, SpanContext(traceID: traceID, spanID: SpanID(6), isSampled: true), SpanID(1), { span in
                span.addAttributes(["streamservice.upstream.cache": .string("hit")])
                span.end(adding: ["url.full": .string("http://127.0.0.1:1/a"), "http.response.status_code": .int64(200)], sharing: shared, at: 2_000)
            }),
            ("shared only", .client, SpanContext(traceID: traceID, spanID: SpanID(7), isSampled: true), SpanID(1), { span in
                span.end(adding: [:], sharing: shared, at: 2_000)
            }),
            ("shared beside the span API's", .client, SpanContext(traceID: traceID, spanID: SpanID(8), isSampled: true), SpanID(1), { span in
                span.attributes["api"] = "set"
                span.end(adding: ["url.full": .string("http://127.0.0.1:1/b")], sharing: shared, at: 2_000)
            }),
            // `end(adding:string:sharing:at:)`: written from the stack when streamed, through a
            // list when recorded (its slow twin), and through a list beside what the span holds.
            ("own and shared", .client, SpanContext(traceID: traceID, spanID: SpanID(10), isSampled: true), SpanID(1), { span in
                span.end(adding: "url.full", string: "http://127.0.0.1:1/c?q=é", sharing: shared, at: 2_000)
            }),
            ("own, errored", .client, SpanContext(traceID: traceID, spanID: SpanID(11), isSampled: true, traceState: "k=v"), SpanID(1), { span in
                span.setStatus(SpanStatus(code: .error))
                span.end(adding: "url.full", string: "", sharing: shared, at: 2_000)
            }),
            ("own beside a list", .client, SpanContext(traceID: traceID, spanID: SpanID(12), isSampled: true), SpanID(1), { span in
                span.addAttributes(["streamservice.upstream.cache": .string("miss")])
                span.end(adding: "url.full", string: "http://127.0.0.1:1/d", sharing: shared, at: 2_000)
            }),
            ("own beside an event", .client, SpanContext(traceID: traceID, spanID: SpanID(13), isSampled: true), SpanID(1), { span in
                span.addEvent(SpanRecord.Event(name: "retry", nanosecondsSinceEpoch: 1_500, attributes: [:]))
                span.end(adding: "url.full", string: "http://127.0.0.1:1/e", sharing: shared, at: 2_000)
            }),
            ("named later", .consumer, SpanContext(traceID: traceID, spanID: SpanID(5), isSampled: true), SpanID(1), { span in
                span.name = "renamed"
                span.addAttributes(["b": .bool(false)])
                span.attributes["api"] = "after the list"
            }),
        ]
        for (name, kind, context, parent, change) in cases {
            for sink in [streamed, recorded] {
                let span = RecordingSpan(name: name, context: context, parentSpanID: parent, kind: kind, startNanoseconds: 1_000, sink: sink)
                change(span)
                span.end(at: 2_000)
                span.end(at: 3_000)
            }
        }
        let bodies = rig.pipeline.processor.waitingBodies()
        XCTAssertEqual(records.spans.count, cases.count)
        XCTAssertEqual(bodies.count, 4)
        let resource = rig.pipeline.settings.resource
        for (index, body) in bodies.enumerated() {
            XCTAssertEqual(body, OTLPProtobufEncoding.encode(Array(records.spans.dropFirst(3 * index).prefix(3)), resource: resource), "batch \(index)")
        }
    }

    /// A batch lent as it lies (the framing's head, then the spans' buffer) against its slow
    /// twin, the body framed into one array, for spans of sizes around each varint width.
    func testABatchLentAsItLiesIsTheBodyFramedIntoOneArray() {
        let framing = OTLPProtobufEncoding.Framing(resource: Resource(serviceName: "lent", attributes: [("k", "v")]))
        for size in [0, 1, 100, 127, 128, 16_000, 16_384, 70_000] {
            var spans = ProtobufWriter()
            spans.append((0..<size).map { UInt8(truncatingIfNeeded: $0 * 31) })
            let slow = spans.withBytes { framing.body(spans: $0) }
            let lent = OTLPProtobufEncoding.FramedSpans(framing: framing, spans: spans)
            var joined: [UInt8] = []
            lent.forEachPiece { joined.append(contentsOf: $0) }
            XCTAssertEqual(joined, slow, "\(size)")
            XCTAssertEqual(lent.count, slow.count, "\(size)")
        }
    }

    func testARecordHandedToAStreamingProcessorIsWrittenAsTheRecordEncoderWritesIt() throws {
        let rig = ExportRig(receiver: nil, endpoint: "http://127.0.0.1:\(try closedPort())/v1/traces")
        let record = SpanRecord(
            context: SpanContext(traceID: TraceID(high: 1, low: 2), spanID: SpanID(3), isSampled: true), parentSpanID: SpanID(4), name: "x",
            kind: .internal, startNanoseconds: 1, endNanoseconds: 2, attributes: ["a": "b"], events: [], links: [], status: nil)
        rig.pipeline.processor.onEnd(record)
        XCTAssertEqual(rig.pipeline.processor.waitingBodies(), [OTLPProtobufEncoding.encode([record], resource: rig.pipeline.settings.resource)])
    }

    func testAQueueReachingABatchSchedulesOneExportNotOnePerLaterSpan() throws {
        let rig = ExportRig(receiver: nil, endpoint: "http://127.0.0.1:\(try closedPort())/v1/traces") { $0.limits.maxExportBatchSize = 4 }
        let timers = rig.scheduler.pendingCount
        for index in 0..<4 { rig.tracer.startSpan("span \(index)").end() }
        XCTAssertEqual(rig.scheduler.pendingCount, timers + 1)
        for index in 4..<20 { rig.tracer.startSpan("span \(index)").end() }
        XCTAssertEqual(rig.scheduler.pendingCount, timers + 1)
        XCTAssertEqual(rig.pipeline.processor.queuedCount, 20)
    }

    func testAJSONExportQueuesRecordsNotWrittenSpans() throws {
        let rig = ExportRig(receiver: nil, endpoint: "http://127.0.0.1:\(try closedPort())/v1/traces") { $0.wireProtocol = .json }
        XCTAssertFalse(rig.pipeline.processor.encodesOnEnd)
        rig.tracer.startSpan("x").end()
        XCTAssertEqual(rig.pipeline.processor.queuedCount, 1)
        XCTAssertEqual(rig.pipeline.processor.waitingBodies(), [])
    }
}

