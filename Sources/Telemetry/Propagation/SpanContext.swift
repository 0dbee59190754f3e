// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Tracing

/// What a span hands to its children and to the next hop: the W3C `traceparent` fields and
/// `tracestate`, kept in the `ServiceContext` under `SpanContextKey`.
public struct SpanContext: Sendable, Hashable {
    public var traceID: TraceID { didSet { kept = nil } }
    public var spanID: SpanID { didSet { kept = nil } }
    /// The `sampled` flag (bit 0 of trace-flags): children of an unsampled span are not exported
    /// under the parent-based samplers, but the ids still travel.
    public var isSampled: Bool { didSet { kept = nil } }
    /// The `tracestate` list as received (validated), passed on unchanged; nil when there was none.
    public var traceState: String?
    /// Extracted from a request rather than started in this process.
    public var isRemote: Bool
    /// `traceparent` as written by `keepTraceparent()`, forgotten when an id or the flag changes;
    /// not part of the value (equality and hash ignore it).
    private var kept: String?

    public init(traceID: TraceID, spanID: SpanID, isSampled: Bool, traceState: String? = nil, isRemote: Bool = false) {
        self.traceID = traceID
        self.spanID = spanID
        self.isSampled = isSampled
        self.traceState = traceState
        self.isRemote = isRemote
    }

    /// The W3C trace-flags byte.
    public var traceFlags: UInt8 { isSampled ? 1 : 0 }

    /// `00-<trace-id>-<parent-id>-<flags>`: the kept one (`keepTraceparent()`), else written in
    /// place (one string, not one per part).
    public var traceparent: String { kept ?? written }

    /// Writes `traceparent` now and keeps it, for a context that many hops send unchanged: an
    /// unsampled span's children are that span (`OTelTracer.startSpan`), so every upstream
    /// exchange of an unsampled request sends this one string rather than writing its own.
    public mutating func keepTraceparent() {
        kept = written
    }

    public static func == (lhs: SpanContext, rhs: SpanContext) -> Bool {
        lhs.traceID == rhs.traceID && lhs.spanID == rhs.spanID && lhs.isSampled == rhs.isSampled
            && lhs.traceState == rhs.traceState && lhs.isRemote == rhs.isRemote
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(traceID)
        hasher.combine(spanID)
        hasher.combine(isSampled)
        hasher.combine(traceState)
        hasher.combine(isRemote)
    }

    private var written: String {
        String(unsafeUninitializedCapacity: 55) { buffer in
            let zero = UInt8(ascii: "0"), dash = UInt8(ascii: "-")
            buffer[0] = zero
            buffer[1] = zero
            buffer[2] = dash
            Hex.write(traceID.high, into: buffer, at: 3)
            Hex.write(traceID.low, into: buffer, at: 19)
            buffer[35] = dash
            Hex.write(spanID.value, into: buffer, at: 36)
            buffer[52] = dash
            buffer[53] = zero
            buffer[54] = zero + traceFlags
            return 55
        }
    }
}

/// The `ServiceContext` key of the current span's `SpanContext`.
public enum SpanContextKey: ServiceContextKey {
    public typealias Value = SpanContext
    public static var nameOverride: String? { "otel-span-context" }
}

extension ServiceContext {
    /// The span context this context carries (the current span, or an extracted remote parent).
    public var spanContext: SpanContext? {
        get { self[SpanContextKey.self] }
        set { self[SpanContextKey.self] = newValue }
    }
}
