// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Tracing

/// The W3C ids of a span's context (32 and 16 lower-case hex digits), as the access log, the
/// pipeline events and the page name a trace. swift-distributed-tracing has no tracer-neutral
/// accessor for them: they are read from the `traceparent` the tracer injects for the context
/// (W3C Trace Context, RFC-like `00-<trace-id>-<span-id>-<flags>`), so any tracer that
/// propagates W3C Trace Context names its traces here; nil for one that does not.
public struct TraceIdentity: Sendable, Equatable {
    public var traceID: String
    public var spanID: String
    /// The `sampled` flag of the context.
    public var sampled: Bool

    public init(traceID: String, spanID: String, sampled: Bool = true) {
        self.traceID = traceID
        self.spanID = spanID
        self.sampled = sampled
    }

    /// The identity `tracer` propagates for `context`; nil without a span or a W3C format.
    public init?(of context: ServiceContext, tracer: any Tracer) {
        var fields = HTTPHeaders()
        tracer.inject(context, into: &fields, using: HTTPHeadersInjector())
        guard let parent = fields["traceparent"], let parsed = TraceIdentity(traceparent: parent) else { return nil }
        self = parsed
    }

    /// A `traceparent` value's ids; nil when it is malformed (version 00's layout, as any
    /// version's first fields are read), or its ids are all zeros.
    public init?(traceparent: String) {
        let parts = traceparent.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count >= 4, parts[0].count == 2, parts[1].count == 32, parts[2].count == 16, parts[3].count == 2,
            parts[0] != "ff", parts.dropLast(parts.count - 4).allSatisfy({ $0.allSatisfy(\.isLowercaseHexDigit) }),
            parts[1].contains(where: { $0 != "0" }), parts[2].contains(where: { $0 != "0" }),
            let flags = UInt8(parts[3], radix: 16)
        else { return nil }
        self.init(traceID: String(parts[1]), spanID: String(parts[2]), sampled: flags & 1 == 1)
    }

    /// This identity as a `traceparent` value (version 00).
    public var traceparent: String { "00-\(traceID)-\(spanID)-\(sampled ? "01" : "00")" }
}

extension Character {
    fileprivate var isLowercaseHexDigit: Bool {
        guard let ascii = asciiValue else { return false }
        return (ascii >= 0x30 && ascii <= 0x39) || (ascii >= 0x61 && ascii <= 0x66)
    }
}
