// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceJSON
import Tracing

/// `ExportTraceServiceRequest` in OTLP's JSON mapping (https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding):
/// lowerCamelCase field names, trace and span ids as lowercase hex (not the base64 of proto3's
/// usual JSON), enums as integers, 64-bit integers as decimal strings.
enum OTLPJSONEncoding {
    static func encode(_ spans: [SpanRecord], resource: Resource) -> [UInt8] {
        var json = JSONOutput(reservingCapacity: 256 + spans.count * 400)
        json.object { request in
            request.field("resourceSpans", [ResourceSpans(spans: spans, resource: resource)])
        }
        return json.bytes
    }

    private struct ResourceSpans: JSONWritable {
        let spans: [SpanRecord]
        let resource: Resource

        func writeJSON(to json: inout JSONOutput) {
            json.object { object in
                object.field("resource", Attributes(pairs: resource.attributes.map { ($0.0, .string($0.1)) }))
                object.field("scopeSpans", [ScopeSpans(spans: spans)])
            }
        }
    }

    /// `{"attributes":[…]}` (a Resource).
    private struct Attributes: JSONWritable {
        let pairs: [(String, SpanAttribute)]

        func writeJSON(to json: inout JSONOutput) {
            json.object { $0.field("attributes", pairs.map(KeyValue.init)) }
        }
    }

    private struct ScopeSpans: JSONWritable {
        let spans: [SpanRecord]

        func writeJSON(to json: inout JSONOutput) {
            json.object { object in
                object.field("scope", Scope())
                object.field("spans", spans.map(SpanJSON.init))
            }
        }
    }

    private struct Scope: JSONWritable {
        func writeJSON(to json: inout JSONOutput) {
            json.object { object in
                object.field("name", Resource.scopeName)
                object.field("version", Resource.sdkVersion)
            }
        }
    }

    private struct SpanJSON: JSONWritable {
        let span: SpanRecord

        func writeJSON(to json: inout JSONOutput) {
            json.object { object in
                object.field("traceId", span.context.traceID.description)
                object.field("spanId", span.context.spanID.description)
                object.field("traceState", ifPresent: span.context.traceState)
                object.field("parentSpanId", ifPresent: span.parentSpanID?.description)
                object.field("flags", Int(span.context.traceFlags))
                object.field("name", span.name)
                object.field("kind", OTLPKind.number(span.kind))
                object.field("startTimeUnixNano", String(span.startNanoseconds))
                object.field("endTimeUnixNano", String(span.endNanoseconds))
                object.field("attributes", KeyValue.list(of: span))
                object.field("events", span.events.map(EventJSON.init))
                object.field("links", span.links.map(LinkJSON.init))
                if let status = span.status { object.field("status", StatusJSON(status: status)) }
            }
        }
    }

    private struct EventJSON: JSONWritable {
        let event: SpanRecord.Event

        func writeJSON(to json: inout JSONOutput) {
            json.object { object in
                object.field("timeUnixNano", String(event.nanosecondsSinceEpoch))
                object.field("name", event.name)
                object.field("attributes", KeyValue.list(event.attributes))
            }
        }
    }

    private struct LinkJSON: JSONWritable {
        let link: SpanRecord.Link

        func writeJSON(to json: inout JSONOutput) {
            json.object { object in
                object.field("traceId", link.context.traceID.description)
                object.field("spanId", link.context.spanID.description)
                object.field("traceState", ifPresent: link.context.traceState)
                object.field("attributes", KeyValue.list(link.attributes))
                object.field("flags", Int(link.context.traceFlags))
            }
        }
    }

    private struct StatusJSON: JSONWritable {
        let status: SpanStatus

        func writeJSON(to json: inout JSONOutput) {
            json.object { object in
                object.field("message", ifPresent: status.message)
                object.field("code", OTLPKind.statusCode(status.code))
            }
        }
    }

    private struct KeyValue: JSONWritable {
        let key: String
        let value: SpanAttribute

        init(_ pair: (String, SpanAttribute)) {
            key = pair.0
            value = pair.1
        }

        static func list(_ attributes: SpanAttributes) -> [KeyValue] {
            var list: [KeyValue] = []
            attributes.forEach { list.append(KeyValue(($0, $1))) }
            return list
        }

        static func list(of span: SpanRecord) -> [KeyValue] {
            var list: [KeyValue] = []
            list.reserveCapacity(span.attributes.count + span.attributeList.count)
            span.forEachAttribute { list.append(KeyValue(($0, $1))) }
            return list
        }

        func writeJSON(to json: inout JSONOutput) {
            json.object { object in
                object.field("key", key)
                object.field("value", AnyValueJSON(value: OTLPValue(value)))
            }
        }
    }

    /// `int64` as a decimal string and `double` as a number string: proto3's JSON mapping reads
    /// both, and a string keeps NaN and the infinities representable.
    private struct AnyValueJSON: JSONWritable {
        let value: OTLPValue

        func writeJSON(to json: inout JSONOutput) {
            json.object { object in
                switch value {
                case .string(let text): object.field("stringValue", text)
                case .bool(let flag): object.field("boolValue", flag)
                case .int(let number): object.field("intValue", String(number))
                case .double(let number): object.field("doubleValue", Self.text(number))
                case .array(let values): object.field("arrayValue", ArrayJSON(values: values))
                }
            }
        }

        static func text(_ number: Double) -> String {
            if number.isNaN { return "NaN" }
            if number.isInfinite { return number > 0 ? "Infinity" : "-Infinity" }
            return "\(number)"
        }
    }

    private struct ArrayJSON: JSONWritable {
        let values: [OTLPValue]

        func writeJSON(to json: inout JSONOutput) {
            json.object { $0.field("values", values.map(AnyValueJSON.init)) }
        }
    }
}
