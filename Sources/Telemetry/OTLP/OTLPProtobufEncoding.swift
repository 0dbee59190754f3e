// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import Tracing

/// `ExportTraceServiceRequest` (opentelemetry-proto, collector/trace/v1) in the protobuf wire
/// format, written by hand for the fields this tracer fills: one resource, one scope, the spans.
/// Field numbers are the .proto's; the tests decode the result with the proto's own Python classes.
enum OTLPProtobufEncoding {
    static func encode(_ spans: [SpanRecord], resource: Resource) -> [UInt8] {
        // Room for a CLIENT span with its nine attributes (about 400 bytes): at 200 a span, a
        // batch's buffer grew and was copied once or twice (7.6 k instructions a `/users` request).
        var request = ProtobufWriter(reservingCapacity: 256 + spans.count * 448)
        request.messageField(1) { resourceSpans in  // ResourceSpans
            resourceSpans.messageField(1) { message in  // Resource
                for (key, value) in resource.attributes { message.keyValueField(1, key: key, string: value) }
            }
            resourceSpans.messageField(2) { scopeSpans in  // ScopeSpans
                scopeSpans.messageField(1) { scope in  // InstrumentationScope
                    scope.stringField(1, Resource.scopeName)
                    scope.stringField(2, Resource.sdkVersion)
                }
                // Read where they lie: `for span in spans`, and `spans[index]` handed to the
                // message's closure, copied each record out (its strings and arrays retained)
                // and destroyed the copy after writing it (about 370 instructions a span).
                spans.withUnsafeBufferPointer { spans in
                    guard let first = spans.baseAddress else { return }
                    for index in spans.indices {
                        let span = first + index
                        scopeSpans.messageField(2) { write(span, to: &$0) }
                    }
                }
            }
        }
        return request.bytes
    }

    /// A `SharedSpanAttributes`' list as a span's `attributes` fields (9), written once and
    /// copied into each span that shares it.
    final class EncodedAttributes: Sendable {
        /// In memory of this object's own that nothing writes after `init`, lent to a span's write
        /// by address: an array read out of the object was retained and released around each
        /// write (`RecordingSpan.withSharedBytes`).
        nonisolated(unsafe) let bytes: UnsafeBufferPointer<UInt8>

        init(_ list: SpanAttributeList) {
            var writer = ProtobufWriter(reservingCapacity: 64 * list.count)
            list.entries.withUnsafeBufferPointer { entries in
                guard let first = entries.baseAddress else { return }
                for index in entries.indices { attribute(&writer, 9, first + index) }
            }
            bytes = writer.withBytes { written in
                let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: written.count)
                _ = copy.initialize(from: written)
                return UnsafeBufferPointer(copy)
            }
        }

        deinit { bytes.deallocate() }
    }

    /// One `ScopeSpans.spans` field (tag, length, message) for the span `body` writes: how a
    /// span goes into a batch's buffer as it ends (`EncodedSpanQueue`).
    static func spanField(_ batch: inout ProtobufWriter, _ body: (inout ProtobufWriter) -> Void) {
        batch.messageField(2, body)
    }

    /// The request around spans already written as `ScopeSpans.spans` fields (`spanField`): the
    /// resource and the scope encoded once, the spans lent as they lie (`FramedSpans`) or copied
    /// once. The same bytes `encode` writes for the same spans, its slow twin (`OTLPEncodingTests`).
    struct Framing: Sendable {
        /// `ResourceSpans.resource` (field 1), tag and length included.
        private let resource: [UInt8]
        /// `ScopeSpans.scope` (field 1), tag and length included.
        private let scope: [UInt8]

        init(resource: Resource) {
            var writer = ProtobufWriter()
            writer.messageField(1) { message in
                for (key, value) in resource.attributes { message.keyValueField(1, key: key, string: value) }
            }
            self.resource = writer.bytes
            writer = ProtobufWriter()
            writer.messageField(1) { scope in
                scope.stringField(1, Resource.scopeName)
                scope.stringField(2, Resource.sdkVersion)
            }
            scope = writer.bytes
        }

        /// `ExportTraceServiceRequest { resource_spans { resource, scope_spans { scope, spans } } }`
        /// in one array: `head(spansCount:)` and the spans copied after it. The slow twin of the
        /// batch lent as it lies (`FramedSpans`) and the body a gzip export compresses.
        func body(spans: UnsafeBufferPointer<UInt8>) -> [UInt8] {
            let (headCount, resourceSpans, scopeSpans) = sizes(spansCount: spans.count)
            return Array(unsafeUninitializedCapacity: headCount + spans.count) { buffer, count in
                guard let base = buffer.baseAddress else { return }
                var at = base + writeHead(at: base, resourceSpans: resourceSpans, scopeSpans: scopeSpans)
                if let source = spans.baseAddress { at.initialize(from: source, count: spans.count) }
                at += spans.count
                count = at - base
            }
        }

        /// What `body(spans:)` writes before `spansCount` bytes of spans: the tags and lengths
        /// of the resource's spans and its scope's, the resource, the scope.
        func head(spansCount: Int) -> [UInt8] {
            let (headCount, resourceSpans, scopeSpans) = sizes(spansCount: spansCount)
            return Array(unsafeUninitializedCapacity: headCount) { buffer, count in
                count = writeHead(at: buffer.baseAddress!, resourceSpans: resourceSpans, scopeSpans: scopeSpans)
            }
        }

        /// The head's size, and the lengths of `ResourceSpans` and `ScopeSpans` around `spansCount` bytes of spans.
        private func sizes(spansCount: Int) -> (head: Int, resourceSpans: Int, scopeSpans: Int) {
            let scopeSpans = scope.count + spansCount
            let resourceSpans = resource.count + 1 + ProtobufWriter.varintSize(scopeSpans) + scopeSpans
            return (1 + ProtobufWriter.varintSize(resourceSpans) + resourceSpans - spansCount, resourceSpans, scopeSpans)
        }

        /// Writes the head at `base`; returns its size.
        private func writeHead(at base: UnsafeMutablePointer<UInt8>, resourceSpans: Int, scopeSpans: Int) -> Int {
            var at = base
            at[0] = 0x0A  // ExportTraceServiceRequest.resource_spans: field 1, length-delimited
            at += 1 + ProtobufWriter.varint(UInt64(resourceSpans), at: at + 1)
            resource.withUnsafeBufferPointer { at.initialize(from: $0.baseAddress!, count: $0.count) }
            at += resource.count
            at[0] = 0x12  // ResourceSpans.scope_spans: field 2
            at += 1 + ProtobufWriter.varint(UInt64(scopeSpans), at: at + 1)
            scope.withUnsafeBufferPointer { at.initialize(from: $0.baseAddress!, count: $0.count) }
            at += scope.count
            return at - base
        }
    }

    /// A batch's request body lent to the client as it lies (`LentRequestBody`): the framing's
    /// head, then the buffer its spans were written into as they ended, handed over by the
    /// processor and never written again. Joining the two into the `[UInt8]` body copied every
    /// span's bytes once more (`Framing.body(spans:)`, its slow twin: OTLPEncodingTests).
    // @unchecked: `spans`' buffer is not written once it is lent (the batch left the queue with it), `head` is a `let`.
    final class FramedSpans: LentRequestBody, @unchecked Sendable {
        let head: [UInt8]
        private let spans: ProtobufWriter

        init(framing: Framing, spans: consuming ProtobufWriter) {
            head = spans.withBytes { framing.head(spansCount: $0.count) }
            self.spans = spans
        }

        var count: Int { head.count + spans.withBytes { $0.count } }

        func forEachPiece(_ piece: (UnsafeRawBufferPointer) -> Void) {
            head.withUnsafeBytes(piece)
            spans.withBytes { piece(UnsafeRawBufferPointer($0)) }
        }
    }

    static func write(_ span: UnsafePointer<SpanRecord>, to message: inout ProtobufWriter) {
        writeSpan(
            &message, context: span.pointee.context, parentSpanID: span.pointee.parentSpanID, name: span.pointee.name, kind: span.pointee.kind,
            start: span.pointee.startNanoseconds, end: span.pointee.endNanoseconds, attributes: span.pointee.attributes,
            list: span.pointee.attributeList, events: span.pointee.events, links: span.pointee.links, status: span.pointee.status)
    }

    /// The fields of a `Span` message (not its tag and length): what a record holds, read where
    /// it lies, and what a `RecordingSpan` that `SizedSpan` does not take writes of its state as
    /// it ends (`BatchSpanProcessor.stream`), with no record made of it. `SizedSpan`'s slow twin.
    static func writeSpan(
        _ message: inout ProtobufWriter, context: SpanContext, parentSpanID: SpanID?, name: String, kind: SpanKind,
        start: UInt64, end: UInt64, attributes: SpanAttributes, list: SpanAttributeList,
        events: [SpanRecord.Event], links: [SpanRecord.Link], status: SpanStatus?, shared: EncodedAttributes? = nil
    ) {
        message.idField(1, context.traceID)
        message.idField(2, context.spanID)
        if let state = context.traceState { message.stringField(3, state) }
        if let parentSpanID { message.idField(4, parentSpanID) }
        message.stringField(5, name)
        message.varintField(6, UInt64(OTLPKind.number(kind)))
        message.fixed64Field(7, start)
        message.fixed64Field(8, end)
        if !attributes.isEmpty { attributes.forEach { key, value in attribute(&message, 9, key, value) } }
        // Read where they lie: iterating the entries copied each key and value out and destroyed it.
        list.entries.withUnsafeBufferPointer { entries in
            guard let first = entries.baseAddress else { return }
            for index in entries.indices { attribute(&message, 9, first + index) }
        }
        if let shared { withExtendedLifetime(shared) { message.append(shared.bytes) } }
        if !events.isEmpty {
            for event in events {
                message.messageField(11) { event_ in
                    event_.fixed64Field(1, event.nanosecondsSinceEpoch)
                    event_.stringField(2, event.name)
                    event.attributes.forEach { key, value in attribute(&event_, 3, key, value) }
                }
            }
        }
        if !links.isEmpty {
            for link in links {
                message.messageField(13) { link_ in
                    link_.idField(1, link.context.traceID)
                    link_.idField(2, link.context.spanID)
                    link_.stringField(3, link.context.traceState ?? "")
                    link.attributes.forEach { key, value in attribute(&link_, 4, key, value) }
                    link_.fixed32Field(6, UInt32(link.context.traceFlags))
                }
            }
        }
        if let status {
            message.messageField(15) { status_ in
                status_.stringField(2, status.message ?? "")
                status_.varintField(3, UInt64(OTLPKind.statusCode(status.code)))
            }
        }
        message.fixed32Field(16, UInt32(context.traceFlags))
    }

    /// A `KeyValue` field of a span: a scalar in one go (`ProtobufWriter.keyValueField`), any
    /// other value through the nested writer (`nestedAttribute`, the slow twin, which writes the
    /// same bytes for a scalar: `OTLPEncodingTests`).
    static func attribute(_ message: inout ProtobufWriter, _ field: Int, _ key: String, _ value: SpanAttribute) {
        switch value {
        case .string(let text): message.keyValueField(field, key: key, string: text)
        case .int64(let number): message.keyValueField(field, key: key, varintField: 3, UInt64(bitPattern: number))
        case .int32(let number): message.keyValueField(field, key: key, varintField: 3, UInt64(bitPattern: Int64(number)))
        case .bool(let flag): message.keyValueField(field, key: key, varintField: 2, flag ? 1 : 0)
        case .double(let number): message.keyValueField(field, key: key, double: number)
        default: nestedAttribute(&message, field, key, value)
        }
    }

    /// `attribute` for an entry of a `SpanAttributeList` (the same bytes: its scalars are
    /// `SpanAttribute`'s), read without making a `SpanAttribute` of its value.
    /// The entry is read where it lies: passed as a value, it was copied out of the list and
    /// the copy destroyed after (about 90 instructions an attribute).
    static func attribute(_ message: inout ProtobufWriter, _ field: Int, _ entry: UnsafePointer<SpanAttributeList.Entry>) {
        switch entry.pointee.stored {
        case .string(let text): message.keyValueField(field, key: entry.pointee.key, string: text)
        case .int64(let number): message.keyValueField(field, key: entry.pointee.key, varintField: 3, UInt64(bitPattern: number))
        case .bool(let flag): message.keyValueField(field, key: entry.pointee.key, varintField: 2, flag ? 1 : 0)
        case .double(let number): message.keyValueField(field, key: entry.pointee.key, double: number)
        case .other(let attribute): self.attribute(&message, field, entry.pointee.key, attribute)
        }
    }

    static func nestedAttribute(_ message: inout ProtobufWriter, _ field: Int, _ key: String, _ value: SpanAttribute) {
        message.messageField(field) { keyValue(&$0, key, value) }
    }

    private static func keyValue(_ message: inout ProtobufWriter, _ key: String, _ value: SpanAttribute) {
        message.stringField(1, key, always: true)
        message.messageField(2) { anyValue(&$0, OTLPValue(value)) }
    }

    /// `AnyValue`: one of string (1), bool (2), int (3), double (4), array (5).
    private static func anyValue(_ message: inout ProtobufWriter, _ value: OTLPValue) {
        switch value {
        case .string(let text): message.stringField(1, text, always: true)
        case .bool(let flag): message.varintFieldAlways(2, flag ? 1 : 0)
        case .int(let number): message.varintFieldAlways(3, UInt64(bitPattern: number))
        case .double(let number): message.doubleFieldAlways(4, number)
        case .array(let values):
            message.messageField(5) { array in
                for value in values { array.messageField(1) { anyValue(&$0, value) } }
            }
        }
    }
}

/// A span attribute as one of OTLP's `AnyValue` kinds.
enum OTLPValue {
    case string(String), bool(Bool), int(Int64), double(Double), array([OTLPValue])

    init(_ attribute: SpanAttribute) {
        switch attribute {
        case .string(let value): self = .string(value)
        case .bool(let value): self = .bool(value)
        case .int32(let value): self = .int(Int64(value))
        case .int64(let value): self = .int(value)
        case .double(let value): self = .double(value)
        case .stringArray(let values): self = .array(values.map { .string($0) })
        case .boolArray(let values): self = .array(values.map { .bool($0) })
        case .int32Array(let values): self = .array(values.map { .int(Int64($0)) })
        case .int64Array(let values): self = .array(values.map { .int($0) })
        case .doubleArray(let values): self = .array(values.map { .double($0) })
        case .stringConvertible(let value): self = .string(value.description)
        case .stringConvertibleArray(let values): self = .array(values.map { .string($0.description) })
        default: self = .string("\(attribute)")
        }
    }

}

/// OTLP's enum numbers (the JSON mapping writes them as integers too).
enum OTLPKind {
    static func number(_ kind: SpanKind) -> Int {
        switch kind {
        case .internal: 1
        case .server: 2
        case .client: 3
        case .producer: 4
        case .consumer: 5
        }
    }

    static func statusCode(_ code: SpanStatus.Code) -> Int {
        switch code {
        case .ok: 1
        case .error: 2
        }
    }
}
