// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import StreamServiceConcurrency
import Telemetry
import Tracing
import TracingTestSupport
import XCTest

/// `OTelTracer` through the swift-distributed-tracing API: parentage, propagation, sampling.
final class TracerTests: XCTestCase {
    private let processor = RecordedSpans()
    private lazy var tracer = OTelTracer(sampler: .default, processor: processor)

    func testAChildSpanSharesTheTraceAndNamesItsParent() throws {
        let parent = tracer.startSpan("GET /users", ofKind: .server)
        let child = tracer.startSpan("GET api.demo.invalid", context: parent.context, ofKind: .client)
        child.attributes["http.request.method"] = "GET"
        child.end()
        parent.end()
        let (childRecord, parentRecord) = (processor.spans[0], processor.spans[1])
        XCTAssertEqual(childRecord.context.traceID, parentRecord.context.traceID)
        XCTAssertEqual(childRecord.parentSpanID, parentRecord.context.spanID)
        XCTAssertNil(parentRecord.parentSpanID)
        XCTAssertEqual(childRecord.kind, .client)
        XCTAssertEqual(childRecord.attributes["http.request.method"]?.toSpanAttribute(), .string("GET"))
    }

    func testAnIncomingTraceparentBecomesTheParentAndGoesOnWithTheChildsID() throws {
        var context = ServiceContext.topLevel
        tracer.extract(["traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "tracestate": "rojo=1"], into: &context, using: DictionaryCarrier())
        let span = tracer.startSpan("GET /users", context: context, ofKind: .server)
        var outgoing: [String: String] = [:]
        tracer.inject(span.context, into: &outgoing, using: DictionaryCarrier())
        let spanContext = try XCTUnwrap(span.context.spanContext)
        XCTAssertEqual(outgoing["traceparent"], "00-0af7651916cd43dd8448eb211c80319c-\(spanContext.spanID)-01")
        XCTAssertEqual(outgoing["tracestate"], "rojo=1")
        span.end()
        XCTAssertEqual(processor.spans.first?.parentSpanID?.description, "b7ad6b7169203331")
    }

    func testAMalformedTraceparentStartsANewTrace() throws {
        var context = ServiceContext.topLevel
        tracer.extract(["traceparent": "00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01", "tracestate": "rojo=1"], into: &context, using: DictionaryCarrier())
        XCTAssertNil(context.spanContext)
        let span = tracer.startSpan("GET /users", context: context, ofKind: .server)
        span.end()
        let record = try XCTUnwrap(processor.spans.first)
        XCTAssertNil(record.parentSpanID)
        XCTAssertNotEqual(record.context.traceID.description, "0af7651916cd43dd8448eb211c80319c")
        XCTAssertNil(record.context.traceState)
    }

    func testAnUnsampledParentsChildRecordsNothingButPropagatesWithFlagsZero() throws {
        var context = ServiceContext.topLevel
        tracer.extract(["traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00"], into: &context, using: DictionaryCarrier())
        let span = tracer.startSpan("GET /users", context: context, ofKind: .server)
        XCTAssertFalse(span.isRecording)
        var outgoing: [String: String] = [:]
        tracer.inject(span.context, into: &outgoing, using: DictionaryCarrier())
        let header = try XCTUnwrap(outgoing["traceparent"])
        XCTAssertTrue(header.hasPrefix("00-0af7651916cd43dd8448eb211c80319c-"), header)
        XCTAssertTrue(header.hasSuffix("-00"), header)
        XCTAssertFalse(header.contains("b7ad6b7169203331"), "the child's own id goes on")
        span.end()
        XCTAssertTrue(processor.spans.isEmpty)
    }

    func testAnUnsampledLocalSpansChildIsThatSpanAndRecordsNothing() throws {
        let tracer = OTelTracer(sampler: .parentBased(root: .alwaysOff), processor: processor)
        let parent = tracer.startSpan("GET /users", ofKind: .server)
        let child = tracer.startSpan("GET", context: parent.context, ofKind: .client)
        XCTAssertFalse(child.isRecording)
        XCTAssertEqual(child.context.spanContext, parent.context.spanContext, "its ids go on unchanged")
        child.end()
        parent.end()
        XCTAssertTrue(processor.spans.isEmpty)
    }

    func testEveryChildOfAnUnsampledSpanInjectsItsTraceparent() throws {
        let tracer = OTelTracer(sampler: .parentBased(root: .alwaysOff), processor: processor)
        let parent = tracer.startSpan("GET /users", ofKind: .server)
        let expected = try XCTUnwrap(parent.context.spanContext).traceparent
        XCTAssertTrue(expected.hasSuffix("-00"), expected)
        for _ in 0..<2 {
            let child = tracer.startSpan("GET", context: parent.context, ofKind: .client)
            var outgoing: [String: String] = [:]
            tracer.inject(child.context, into: &outgoing, using: DictionaryCarrier())
            XCTAssertEqual(outgoing["traceparent"], expected)
            child.end()
        }
        parent.end()
    }

    func testASampledChildOfAnUnsampledLocalSpanHasAnIdOfItsOwn() throws {
        let parent = OTelTracer(sampler: .alwaysOff, processor: processor).startSpan("GET /users", ofKind: .server)
        let child = OTelTracer(sampler: .alwaysOn, processor: processor).startSpan("GET", context: parent.context, ofKind: .client)
        XCTAssertTrue(child.isRecording)
        XCTAssertEqual(child.context.spanContext?.traceID, parent.context.spanContext?.traceID)
        XCTAssertNotEqual(child.context.spanContext?.spanID, parent.context.spanContext?.spanID)
        child.end()
        XCTAssertEqual(processor.spans.first?.parentSpanID, parent.context.spanContext?.spanID)
    }

    func testARecordedSpanInjectsTheFieldsTheTracerInjects() throws {
        var remote = ServiceContext.topLevel
        tracer.extract(
            ["traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "tracestate": "vendor=a"], into: &remote,
            using: DictionaryCarrier())
        for context in [ServiceContext.topLevel, remote] {
            let (span, recorded) = tracer.startRecordedSpan("GET", context: context, ofKind: .client)
            let recording = try XCTUnwrap(recorded)
            for before in [HTTPHeaders(), ["If-None-Match": "\"a\"", "traceparent": "stale"]] {
                var fast = before, slow = before
                recording.inject(into: &fast)
                tracer.inject(span.context, into: &slow, using: HTTPHeadersInjector())
                XCTAssertEqual(fast, slow, "\(before)")
            }
            span.end()
        }
    }

    func testARecordedSpansTraceParentIsWhatItInjectsWhenItInjectsNothingElse() throws {
        var remote = ServiceContext.topLevel
        tracer.extract(["traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"], into: &remote, using: DictionaryCarrier())
        var stated = ServiceContext.topLevel
        tracer.extract(
            ["traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "tracestate": "vendor=a"], into: &stated,
            using: DictionaryCarrier())
        for context in [ServiceContext.topLevel, remote] {
            let (span, recorded) = tracer.startRecordedSpan("GET", context: context, ofKind: .client)
            let recording = try XCTUnwrap(recorded)
            var fields = HTTPHeaders()
            recording.inject(into: &fields)
            XCTAssertEqual(try XCTUnwrap(recording.traceParent).traceparent, fields["traceparent"])
            XCTAssertEqual(fields.count, 1)
            span.end()
        }
        let (span, recorded) = tracer.startRecordedSpan("GET", context: stated, ofKind: .client)
        XCTAssertNil(try XCTUnwrap(recorded).traceParent, "a tracestate goes out as fields")
        span.end()
    }

    func testARecordedSpanNamesTheIdentityTheTracerReadsFromItsContext() throws {
        var remote = ServiceContext.topLevel
        tracer.extract(["traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"], into: &remote, using: DictionaryCarrier())
        for context in [ServiceContext.topLevel, remote] {
            let (span, recorded) = tracer.startRecordedSpan("GET /users", context: context, ofKind: .server)
            let identity = try XCTUnwrap(try XCTUnwrap(recorded).traceIdentity)
            XCTAssertEqual(identity, tracer.traceIdentity(of: span.context))
            span.end()
        }
    }

    func testTheIdentityTheTracerNamesIsTheOneItInjects() throws {
        for sampler in [Sampler.alwaysOn, .alwaysOff] {
            let span = OTelTracer(sampler: sampler, processor: processor).startSpan("GET /users", ofKind: .server)
            var outgoing: [String: String] = [:]
            tracer.inject(span.context, into: &outgoing, using: DictionaryCarrier())
            let injected = try XCTUnwrap(outgoing["traceparent"].flatMap(TraceIdentity.init(traceparent:)))
            XCTAssertEqual(tracer.traceIdentity(of: span.context), injected)
            XCTAssertEqual(TraceIdentity(of: span.context, tracer: tracer), injected)
        }
        XCTAssertNil(tracer.traceIdentity(of: .topLevel))
    }

    func testFreshIdsAreValidDistinctAndVaryInEveryBit() {
        let spanIDs = (0..<50_000).map { _ in SpanID.random() }
        let traceIDs = (0..<50_000).map { _ in TraceID.random() }
        XCTAssertTrue(spanIDs.allSatisfy(\.isValid) && traceIDs.allSatisfy(\.isValid))
        XCTAssertEqual(Set(spanIDs).count, spanIDs.count)
        XCTAssertEqual(Set(traceIDs).count, traceIDs.count)
        for bit in 0..<64 {
            let set = spanIDs.filter { $0.value >> UInt64(bit) & 1 == 1 }.count
            XCTAssertEqual(Double(set) / Double(spanIDs.count), 0.5, accuracy: 0.02, "bit \(bit) of the span ids")
            let high = traceIDs.filter { $0.high >> UInt64(bit) & 1 == 1 }.count
            XCTAssertEqual(Double(high) / Double(traceIDs.count), 0.5, accuracy: 0.02, "bit \(bit) of the trace ids' high half")
        }
    }

    func testRatioZeroExportsNothingYetEverySpanHasIds() throws {
        let tracer = OTelTracer(sampler: .parentBased(root: .traceIDRatio(0)), processor: processor)
        let span = tracer.startSpan("GET /health", ofKind: .server)
        XCTAssertFalse(try XCTUnwrap(span.context.spanContext).isSampled)
        span.end()
        XCTAssertTrue(processor.spans.isEmpty)
    }

    func testEventsLinksStatusAndErrorsAreRecorded() throws {
        let other = tracer.startSpan("other")
        let span = tracer.startSpan("GET api.demo.invalid", ofKind: .client)
        span.addEvent(SpanEvent(name: "retry", attributes: ["http.request.resend_count": 1]))
        span.addLink(SpanLink(context: other.context, attributes: [:]))
        span.recordError(ErrorForTest())
        span.setStatus(SpanStatus(code: .error, message: "503"))
        span.end()
        span.attributes["after.end"] = "ignored"
        let record = try XCTUnwrap(processor.spans.first)
        XCTAssertEqual(record.events.map(\.name), ["retry", "exception"])
        XCTAssertEqual(record.links.first?.context.spanID, other.context.spanContext?.spanID)
        XCTAssertEqual(record.status, SpanStatus(code: .error, message: "503"))
        XCTAssertNil(record.attributes["after.end"])
        XCTAssertGreaterThanOrEqual(record.endNanoseconds, record.startNanoseconds)
    }

    func testASpanStartedAsItsRecordingIsTheRecordingWhenSampledAndTheSpanWhenNot() throws {
        guard case .recorded = tracer.startSpanOrRecording("GET", context: .topLevel, ofKind: .client) else {
            return XCTFail("a sampled span is started as its recording")
        }
        let unsampled = OTelTracer(sampler: .alwaysOff, processor: processor)
        guard case .span(let span) = unsampled.startSpanOrRecording("GET", context: .topLevel, ofKind: .client) else {
            return XCTFail("an unsampled span is started as the span")
        }
        XCTAssertFalse(span.isRecording)
    }

    func testARecordingSetsStatusAddsEventsAndEndsAsItsSpanDoes() throws {
        let event = SpanEvent(name: "retry", at: DefaultTracerClock.now, attributes: ["streamservice.retry.number": 1])
        let (span, _) = tracer.startRecordedSpan("GET", context: .topLevel, ofKind: .client)
        span.setStatus(SpanStatus(code: .error, message: "503"))
        span.addEvent(event)
        span.end()
        guard case .recorded(let recorded) = tracer.startSpanOrRecording("GET", context: .topLevel, ofKind: .client) else {
            return XCTFail("a sampled span is started as its recording")
        }
        recorded.setStatus(SpanStatus(code: .error, message: "503"))
        recorded.addEvent(event)
        recorded.end()
        recorded.end()
        XCTAssertEqual(processor.spans.count, 2, "a second end records nothing")
        let (slow, fast) = (processor.spans[0], processor.spans[1])
        XCTAssertEqual(fast.name, slow.name)
        XCTAssertEqual(fast.kind, slow.kind)
        XCTAssertEqual(fast.status, slow.status)
        XCTAssertEqual(fast.events.map(\.name), slow.events.map(\.name))
        XCTAssertEqual(fast.events.map(\.nanosecondsSinceEpoch), slow.events.map(\.nanosecondsSinceEpoch))
        XCTAssertEqual(fast.events.map(\.attributes), slow.events.map(\.attributes))
        XCTAssertGreaterThanOrEqual(fast.endNanoseconds, fast.startNanoseconds)
    }

    func testTheInstalledTracerIsTheOneInstrumentationSystemStartsSpansWith() throws {
        TracingSystem.install(tracer)
        defer { TracingSystem.uninstall(tracer) }
        let span = InstrumentationSystem.tracer.startAnySpan("through the API", context: .topLevel)
        span.end()
        XCTAssertEqual(processor.spans.first?.name, "through the API")
        var outgoing: [String: String] = [:]
        InstrumentationSystem.instrument.inject(span.context, into: &outgoing, using: DictionaryCarrier())
        XCTAssertNotNil(outgoing["traceparent"].flatMap(TraceParent.parse))
    }
}

struct ErrorForTest: Error {}

/// Headers as a dictionary, for extract and inject.
struct DictionaryCarrier: Extractor, Injector {
    func extract(key: String, from carrier: [String: String]) -> String? { carrier[key] }
    func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) { carrier[key] = value }
}

