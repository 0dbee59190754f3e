// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import Tracing

/// A finished, sampled span as the exporter sends it: immutable, handed from the span's `end` to the
/// batch processor's queue.
public struct SpanRecord: Sendable {
    /// An event of the span (`addEvent`, `recordError`).
    public struct Event: Sendable {
        public var name: String
        public var nanosecondsSinceEpoch: UInt64
        public var attributes: SpanAttributes
    }

    /// A link to another span (`addLink`).
    public struct Link: Sendable {
        public var context: SpanContext
        public var attributes: SpanAttributes
    }

    public var context: SpanContext
    /// nil for a root span.
    public var parentSpanID: SpanID?
    public var name: String
    public var kind: SpanKind
    public var startNanoseconds: UInt64
    public var endNanoseconds: UInt64
    /// The attributes set through the span API (`Span.attributes`); empty when `attributeList` holds them.
    public var attributes: SpanAttributes
    /// The attributes a span of this service handed over whole (`SpanAttributeList`); empty when
    /// `attributes` holds them. The two never hold one key.
    public var attributeList: SpanAttributeList
    public var events: [Event]
    public var links: [Link]
    /// nil: unset (OTLP `STATUS_CODE_UNSET`).
    public var status: SpanStatus?

    /// Inlined: called out of line, a span's end copied the record it made and destroyed the
    /// first (about 370 instructions a span).
    @inline(__always)
    public init(
        context: SpanContext, parentSpanID: SpanID?, name: String, kind: SpanKind, startNanoseconds: UInt64, endNanoseconds: UInt64,
        attributes: SpanAttributes, attributeList: SpanAttributeList = SpanAttributeList(), events: [Event], links: [Link], status: SpanStatus?
    ) {
        self.context = context
        self.parentSpanID = parentSpanID
        self.name = name
        self.kind = kind
        self.startNanoseconds = startNanoseconds
        self.endNanoseconds = endNanoseconds
        self.attributes = attributes
        self.attributeList = attributeList
        self.events = events
        self.links = links
        self.status = status
    }
}

extension SpanRecord {
    /// Every attribute once, from whichever of `attributes` and `attributeList` holds it.
    public func forEachAttribute(_ body: (String, SpanAttribute) -> Void) {
        attributes.forEach(body)
        for entry in attributeList.entries { body(entry.key, entry.value) }
    }
}
