// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import Tracing
import TracingTestSupport
import XCTest
@testable import Telemetry

/// A `RecordingSpan` once it has ended: its state is the ending call's alone, so it ignores
/// changes and its getters answer empty.
final class RecordingSpanTests: XCTestCase {
    private static let context = SpanContext(traceID: TraceID(high: 1, low: 2), spanID: SpanID(3), isSampled: true)

    private func span(_ records: RecordedSpans) -> RecordingSpan {
        RecordingSpan(name: "GET", context: Self.context, parentSpanID: nil, kind: .client, startNanoseconds: 1_000, sink: SpanSink(records))
    }

    func testAChangeAfterTheEndIsNotRecorded() {
        let records = RecordedSpans()
        let span = span(records)
        span.addAttributes(["a": .int64(1)])
        span.end(at: 2_000)
        span.name = "renamed"
        span.addAttributes(["b": .int64(2)])
        span.attributes["c"] = "set"
        span.setStatus(SpanStatus(code: .error))
        span.addEvent(SpanRecord.Event(name: "late", nanosecondsSinceEpoch: 2_500, attributes: [:]))
        span.end(at: 3_000)
        XCTAssertEqual(records.spans.count, 1)
        XCTAssertEqual(records.spans.first?.name, "GET")
        XCTAssertEqual(records.spans.first?.endNanoseconds, 2_000)
        XCTAssertEqual(records.spans.first.map(Self.attributes), ["a": .int64(1)])
        XCTAssertNil(records.spans.first?.status)
        XCTAssertEqual(records.spans.first?.events.count, 0)
    }

    func testAnEndedSpansGettersAnswerEmpty() {
        let span = span(RecordedSpans())
        span.addAttributes(["a": .int64(1)])
        span.end(at: 2_000)
        XCTAssertEqual(span.name, "")
        XCTAssertEqual(span.attributes, SpanAttributes())
    }

    func testAStatusSetBeforeTheEndIsRecorded() {
        let records = RecordedSpans()
        let span = span(records)
        span.setStatus(SpanStatus(code: .error, message: "boom"))
        span.setStatus(SpanStatus(code: .ok))
        span.end(adding: "url.full", string: "http://127.0.0.1:1/a", sharing: SharedSpanAttributes(["server.port": .int64(1)]), at: 2_000)
        XCTAssertEqual(records.spans.first?.status, SpanStatus(code: .ok))
        XCTAssertEqual(records.spans.first.map(Self.attributes), ["url.full": "http://127.0.0.1:1/a", "server.port": .int64(1)])
    }

    private static func attributes(_ record: SpanRecord) -> SpanAttributes {
        var all = SpanAttributes()
        record.forEachAttribute { all[$0] = $1 }
        return all
    }
}
