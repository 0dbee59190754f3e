// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceText
import Tracing

/// The W3C ids of a span's context (32 and 16 lower-case hex digits), as the access log, the
/// pipeline events and the page name a trace. swift-distributed-tracing has no tracer-neutral
/// accessor for them: they are read from the `traceparent` the tracer injects for the context
/// (W3C Trace Context, RFC-like `00-<trace-id>-<span-id>-<flags>`), so any tracer that
/// propagates W3C Trace Context names its traces here; nil for one that does not.
public struct TraceIdentity: Sendable, Equatable {
    /// The ids as numbers (a tracer's, written as hex when read), unless `text` holds them as given.
    /// Numbers, because a request's identity is made for every traced request and mostly never
    /// read (the access log off, no pipeline event): its two hex strings were made and freed for
    /// nothing (about 700 instructions a request, at any sampling ratio). Plain fields and one
    /// optional reference, so the request's storage assigns it with no enum's value witness.
    private var traceHigh: UInt64 = 0
    private var traceLow: UInt64 = 0
    private var spanValue: UInt64 = 0
    private var text: Text?

    /// Ids given as strings.
    private final class Text: Sendable {
        let trace: String
        let span: String

        init(trace: String, span: String) {
            self.trace = trace
            self.span = span
        }
    }

    /// The trace's id: 32 lower-case hex digits.
    public var traceID: String {
        get { text?.trace ?? Self.hex([traceHigh, traceLow]) }
        set { text = Text(trace: newValue, span: spanID) }
    }

    /// The span's id: 16 lower-case hex digits.
    public var spanID: String {
        get { text?.span ?? Self.hex([spanValue]) }
        set { text = Text(trace: traceID, span: newValue) }
    }

    /// The `sampled` flag of the context.
    public var sampled: Bool

    /// An identity of these ids, as given (they are not checked).
    public init(traceID: String, spanID: String, sampled: Bool = true) {
        text = Text(trace: traceID, span: spanID)
        self.sampled = sampled
    }

    /// An identity of these ids as numbers (the trace's first and last eight bytes, the span's
    /// eight, big-endian), written as hex digits when read.
    public init(traceHigh: UInt64, traceLow: UInt64, spanID: UInt64, sampled: Bool) {
        self.traceHigh = traceHigh
        self.traceLow = traceLow
        spanValue = spanID
        self.sampled = sampled
    }

    public static func == (lhs: TraceIdentity, rhs: TraceIdentity) -> Bool {
        guard lhs.sampled == rhs.sampled else { return false }
        if lhs.text == nil, rhs.text == nil {
            return lhs.traceHigh == rhs.traceHigh && lhs.traceLow == rhs.traceLow && lhs.spanValue == rhs.spanValue
        }
        return lhs.traceID == rhs.traceID && lhs.spanID == rhs.spanID
    }

    /// `values` as 16 lower-case hex digits each.
    private static func hex(_ values: [UInt64]) -> String {
        String(unsafeUninitializedCapacity: 16 * values.count) { buffer in
            for (index, value) in values.enumerated() {
                ASCIIDigits.writeHexadecimal(value, count: 16, to: buffer.baseAddress! + 16 * index)
            }
            return 16 * values.count
        }
    }

    /// The identity `tracer` propagates for `context`; nil without a span or a W3C format.
    /// Asked of the tracer when it can tell (`TraceIdentityReading`), else read back from the
    /// `traceparent` it injects.
    public init?(of context: ServiceContext, tracer: any Tracer) {
        if let reading = tracer as? any TraceIdentityReading {
            guard let identity = reading.traceIdentity(of: context) else { return nil }
            self = identity
            return
        }
        var fields = HTTPHeaders()
        tracer.inject(context, into: &fields, using: HTTPHeadersInjector())
        guard let parent = fields[TraceParentIDs.fieldName], let parsed = TraceIdentity(traceparent: parent) else { return nil }
        self = parsed
    }

    /// A `traceparent` value's ids; nil when it is malformed (version 00's layout, as any
    /// version's first fields are read: `vv-<32 hex>-<16 hex>-ff`, then nothing or `-…`), its
    /// version is `ff`, or its ids are all zeros. Read as bytes at their fixed places.
    public init?(traceparent: String) {
        var text = traceparent
        guard let parsed = text.withUTF8({ bytes -> TraceIdentity? in
            let dash = UInt8(ascii: "-")
            guard bytes.count >= 55, bytes[2] == dash, bytes[35] == dash, bytes[52] == dash, bytes.count == 55 || bytes[55] == dash,
                let version = Self.hexByte(bytes[0], bytes[1]), version != 0xff, let flags = Self.hexByte(bytes[53], bytes[54]),
                (3..<35).allSatisfy({ Self.hexDigit(bytes[$0]) != nil }), (36..<52).allSatisfy({ Self.hexDigit(bytes[$0]) != nil }),
                (3..<35).contains(where: { bytes[$0] != UInt8(ascii: "0") }), (36..<52).contains(where: { bytes[$0] != UInt8(ascii: "0") })
            else { return nil }
            return TraceIdentity(
                traceID: String(decoding: bytes[3..<35], as: UTF8.self),
                spanID: String(decoding: bytes[36..<52], as: UTF8.self),
                sampled: flags & 1 == 1)
        }) else { return nil }
        self = parsed
    }

    /// A lower-case hex digit's value; nil for anything else (W3C Trace Context allows no upper case).
    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    private static func hexByte(_ high: UInt8, _ low: UInt8) -> UInt8? {
        guard let high = hexDigit(high), let low = hexDigit(low) else { return nil }
        return high << 4 | low
    }

    /// This identity as a `traceparent` value (version 00).
    public var traceparent: String { "00-\(traceID)-\(spanID)-\(sampled ? "01" : "00")" }
}

/// A `traceparent` (version 00) as its ids' numbers, what an upstream request's head writes
/// straight from them (`HTTPClientRequest.traceParent`): the string in the request's extra
/// fields cost its allocation, a one-field list and their releases (about 800 instructions a
/// CLIENT span). Plain values, no reference: a `TraceIdentity` (which may hold its ids as
/// strings) in the request cost its value witnesses at every copy, about 330 instructions an
/// exchange.
public struct TraceParentIDs: Sendable, Equatable {
    /// The trace id's first and last eight bytes, big-endian.
    public var traceHigh: UInt64
    public var traceLow: UInt64
    /// The parent span's id (the CLIENT span's, going upstream).
    public var spanID: UInt64
    /// The `sampled` flag.
    public var sampled: Bool

    public init(traceHigh: UInt64, traceLow: UInt64, spanID: UInt64, sampled: Bool) {
        self.traceHigh = traceHigh
        self.traceLow = traceLow
        self.spanID = spanID
        self.sampled = sampled
    }

    /// The value's length: `00-` 32 digits `-` 16 digits `-` 2 digits.
    public static let count = 55

    /// The field it is sent in (lowercase: HTTP/2 requires it, HTTP/1.1 ignores case).
    public static let fieldName = "traceparent"

    /// The value's bytes at `start` (which has room for `count` of them).
    public func write(to start: UnsafeMutableRawPointer) {
        let zero = UInt8(ascii: "0"), dash = UInt8(ascii: "-")
        start.storeBytes(of: zero, as: UInt8.self)
        (start + 1).storeBytes(of: zero, as: UInt8.self)
        (start + 2).storeBytes(of: dash, as: UInt8.self)
        HexWords.write(traceHigh, to: start + 3)
        HexWords.write(traceLow, to: start + 19)
        (start + 35).storeBytes(of: dash, as: UInt8.self)
        HexWords.write(spanID, to: start + 36)
        (start + 52).storeBytes(of: dash, as: UInt8.self)
        (start + 53).storeBytes(of: zero, as: UInt8.self)
        (start + 54).storeBytes(of: sampled ? zero + 1 : zero, as: UInt8.self)
    }

    /// The value as a string (`write(to:)`'s bytes); `TraceIdentity.traceparent` of the same ids
    /// is its slow twin (the tests hold the two equal).
    public var traceparent: String {
        String(unsafeUninitializedCapacity: Self.count) { buffer in
            write(to: UnsafeMutableRawPointer(buffer.baseAddress!))
            return Self.count
        }
    }
}

/// A tracer that names the W3C ids of a context's span itself, so `TraceIdentity(of:tracer:)`
/// neither writes a `traceparent` for it nor reads one back (a request's every SERVER span
/// asks). Its answer must be the ids its `inject` would write.
public protocol TraceIdentityReading: Sendable {
    /// The ids of the span `context` carries, as this tracer would write them into `traceparent`;
    /// nil when `context` carries no span of this tracer.
    func traceIdentity(of context: ServiceContext) -> TraceIdentity?
}
