// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import InMemoryTracing
import Tracing

/// swift-distributed-tracing's own `InMemoryTracer` (its spans, kept in memory for the test to
/// read), speaking W3C Trace Context on the wire: ids of 32 and 16 hex digits, and `traceparent`
/// injected and extracted, where the in-memory tracer has its own `in-memory-*` fields. The code
/// under test sees a tracer as it sees any other (the exporter's is W3C too).
public struct W3CTestTracer: Tracer {
    public typealias Span = InMemorySpan

    public let recorder: InMemoryTracer

    public init() {
        recorder = InMemoryTracer(
            idGenerator: .init(nextTraceID: { Self.hex(digits: 32) }, nextSpanID: { Self.hex(digits: 16) }),
            recordInjections: false, recordExtractions: false)
    }

    public func startSpan<Instant: TracerInstant>(
        _ operationName: String, context: @autoclosure () -> ServiceContext, ofKind kind: SpanKind, at instant: @autoclosure () -> Instant,
        function: String, file fileID: String, line: UInt
    ) -> InMemorySpan {
        recorder.startSpan(operationName, context: context(), ofKind: kind, at: instant(), function: function, file: fileID, line: line)
    }

    public func forceFlush() {}

    public func inject<Carrier, Inject: Injector>(_ context: ServiceContext, into carrier: inout Carrier, using injector: Inject)
    where Inject.Carrier == Carrier {
        guard let span = context.inMemorySpanContext else { return }
        injector.inject("00-\(span.traceID)-\(span.spanID)-01", forKey: "traceparent", into: &carrier)
    }

    public func extract<Carrier, Extract: Extractor>(_ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract)
    where Extract.Carrier == Carrier {
        guard let value = extractor.extract(key: "traceparent", from: carrier) else { return }
        let parts = value.split(separator: "-")
        guard parts.count == 4, parts[1].count == 32, parts[2].count == 16 else { return }
        context.inMemorySpanContext = InMemorySpanContext(traceID: String(parts[1]), spanID: String(parts[2]), parentSpanID: nil)
    }

    /// The spans ended so far.
    public var finishedSpans: [FinishedInMemorySpan] { recorder.finishedSpans }

    /// The ended spans of one trace.
    public func spans(inTrace traceID: String) -> [FinishedInMemorySpan] {
        finishedSpans.filter { $0.traceID == traceID }
    }

    static func hex(digits: Int) -> String {
        var text = ""
        while text.count < digits { text += String(UInt64.random(in: 1...UInt64.max), radix: 16).leftPadded(to: 16) }
        return String(text.prefix(digits))
    }
}

extension FinishedInMemorySpan {
    /// An attribute's value as text (`"200"` for an integer 200), nil when absent.
    public func attribute(_ name: String) -> String? {
        attributes.text(name)
    }
}

extension SpanAttributes {
    /// An attribute's value as text (`"200"` for an integer 200), nil when absent.
    public func text(_ name: String) -> String? {
        guard let value = get(name) else { return nil }
        switch value {
        case .string(let text): return text
        case .int64(let number): return String(number)
        case .int32(let number): return String(number)
        case .double(let number): return String(number)
        case .bool(let flag): return String(flag)
        default: return "\(value)"
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
