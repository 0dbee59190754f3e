// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import InMemoryTracing
import Tracing
import TracingTestSupport
import XCTest

/// A finished trace as a test reads it: its spans by kind, name and parent.
struct RecordedTrace {
    let spans: [FinishedInMemorySpan]

    /// The trace `traceID` once its SERVER span has ended (the span ends after the answer's
    /// last byte, so a client may read first), waiting `timeout` at most; then `settled` too.
    init(
        _ tracer: W3CTestTracer, traceID: String, test: XCTestCase, timeout: TimeInterval = 5,
        until settled: @escaping @Sendable ([FinishedInMemorySpan]) -> Bool = { _ in true }
    ) {
        test.waitUntil("the trace \(traceID) has ended its SERVER span", timeout: timeout) {
            let spans = tracer.spans(inTrace: traceID)
            return spans.contains { $0.kind == .server } && settled(spans)
        }
        spans = tracer.spans(inTrace: traceID)
    }

    var server: FinishedInMemorySpan? { spans.first { $0.kind == .server } }

    func children(of parent: FinishedInMemorySpan?) -> [FinishedInMemorySpan] {
        guard let parent else { return [] }
        return spans.filter { $0.parentSpanID == parent.spanID }
    }

    func child(of parent: FinishedInMemorySpan?, named name: String, kind: SpanKind) -> FinishedInMemorySpan? {
        children(of: parent).first { $0.operationName == name && $0.kind == kind }
    }

    /// The tree as indented lines (`kind name [attribute=value …]`), for a failure's message.
    var text: String {
        func lines(_ span: FinishedInMemorySpan, depth: Int) -> [String] {
            [String(repeating: "  ", count: depth) + "\(span.kind) \(span.operationName) \(span.spanID)"]
                + children(of: span).flatMap { lines($0, depth: depth + 1) }
        }
        return spans.filter { span in !spans.contains { $0.spanID == span.parentSpanID } }.flatMap { lines($0, depth: 0) }.joined(separator: "\n")
    }
}

enum W3C {
    /// A `traceparent` from a caller: a fresh trace id and the caller's span id.
    static func callerTraceparent() -> (header: String, traceID: String, parentSpanID: String) {
        let traceID = String((0..<2).map { _ in String(format: "%016llx", UInt64.random(in: 1...UInt64.max)) }.joined())
        let spanID = String(format: "%016llx", UInt64.random(in: 1...UInt64.max))
        return ("00-\(traceID)-\(spanID)-01", traceID, spanID)
    }
}
