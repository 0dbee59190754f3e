// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import Tracing

/// What a span hands to its children and to the next hop: the W3C `traceparent` fields and
/// `tracestate`, kept in the `ServiceContext` under `SpanContextKey`.
public struct SpanContext: Sendable, Hashable {
    public var traceID: TraceID
    public var spanID: SpanID
    /// The `sampled` flag (bit 0 of trace-flags): children of an unsampled span are not exported
    /// under the parent-based samplers, but the ids still travel.
    public var isSampled: Bool
    /// The `tracestate` list as received (validated), passed on unchanged; nil when there was none.
    public var traceState: String?
    /// Extracted from a request rather than started in this process.
    public var isRemote: Bool

    public init(traceID: TraceID, spanID: SpanID, isSampled: Bool, traceState: String? = nil, isRemote: Bool = false) {
        self.traceID = traceID
        self.spanID = spanID
        self.isSampled = isSampled
        self.traceState = traceState
        self.isRemote = isRemote
    }

    /// The W3C trace-flags byte.
    public var traceFlags: UInt8 { isSampled ? 1 : 0 }

    /// Its `traceparent`'s ids, as an upstream request's head writes them.
    public var traceParentIDs: TraceParentIDs {
        TraceParentIDs(traceHigh: traceID.high, traceLow: traceID.low, spanID: spanID.value, sampled: isSampled)
    }

    /// `00-<trace-id>-<parent-id>-<flags>`, written in place (one string, not one per part).
    public var traceparent: String { traceParentIDs.traceparent }
}

/// The `ServiceContext` key of the current span's `SpanContext`, held by reference.
public enum SpanContextKey: ServiceContextKey {
    public typealias Value = SpanContextReference
    public static var nameOverride: String? { "otel-span-context" }
}

/// A `SpanContext` as a `ServiceContext` holds it: by reference, so a recorded span's own object
/// (`RecordingSpan`, a subclass) is what its context holds. A `SpanContext` value (41 bytes) went
/// into a box of its own in the context's `Any`, and every read copied it out of the box through
/// a cast (about 330 instructions); a class is held as it is and read back by a class cast.
// @unchecked: immutable here; its one subclass, `RecordingSpan`, keeps its state under its lock.
public class SpanContextReference: @unchecked Sendable {
    public let spanContext: SpanContext

    init(_ spanContext: SpanContext) {
        self.spanContext = spanContext
    }
}

extension ServiceContext {
    /// The span context this context carries (the current span, or an extracted remote parent).
    public var spanContext: SpanContext? {
        get { spanContextReference?.spanContext }
        set { self[SpanContextKey.self] = newValue.map(SpanContextReference.init) }
    }

    /// What `SpanContextKey` holds. A context of this tracer's making holds that key alone (or
    /// beside a few others): its entries are walked and the value's type compared, where the
    /// keyed read (`spanContextReferenceByKey`, the slow twin) hashed the key and cast the value
    /// out of its `any Sendable` through `swift_dynamicCast` (≈ 570 instructions, once a span start).
    var spanContextReference: SpanContextReference? {
        // A walk of a larger context would cost more than the hash it saves.
        guard count <= Self.walkedEntries else { return spanContextReferenceByKey }
        var found: SpanContextReference?
        forEach { key, value in
            guard key.keyType == SpanContextKey.self else { return }
            found = Self.reference(value)
        }
        return found
    }

    /// `self[SpanContextKey.self]`: the keyed read.
    var spanContextReferenceByKey: SpanContextReference? { self[SpanContextKey.self] }

    /// The most entries `spanContextReference` walks.
    static let walkedEntries = 4

    /// `value` (what `SpanContextKey` holds, opened) as the reference it is: the two classes it can
    /// be (the reference type is not `open`: no other module subclasses it) by a type comparison;
    /// anything else by a cast.
    private static func reference<Value: Sendable>(_ value: Value) -> SpanContextReference? {
        if Value.self == SpanContextReference.self || Value.self == RecordingSpan.self {
            // The value is that reference: its bytes read as one (a retained copy).
            return withUnsafeBytes(of: value) { $0.load(as: SpanContextReference.self) }
        }
        return value as? SpanContextReference
    }
}
