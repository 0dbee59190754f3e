// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

@testable import Telemetry
import HTTP
import Tracing
import TracingTestSupport
import XCTest

/// `RootContexts` (root spans' contexts, their storage reused) makes what its slow
/// twin makes, and never changes a context a request still holds; `OTelTracer.startServerSpan`
/// names the ids the tracer reads from the span's context.
final class RootContextsTests: XCTestCase {
    private func reference(_ span: UInt64) -> SpanContextReference {
        SpanContextReference(SpanContext(traceID: TraceID(high: 7, low: span), spanID: SpanID(span), isSampled: false))
    }

    func testAKeptContextHoldsWhatTheRootContextWithTheKeySetHolds() {
        let roots = RootContexts()
        let held = reference(1)
        var slow = OTelTracer.rootContext
        slow[SpanContextKey.self] = held
        let fast = roots.context(holding: held)
        XCTAssertEqual(fast.count, slow.count)
        XCTAssertTrue(fast.spanContextReference === held)
        XCTAssertEqual(fast.spanContext, slow.spanContext)
    }

    func testAContextARequestStillHoldsKeepsItsSpanWhenTheNextIsMade() {
        let roots = RootContexts()
        var held: [ServiceContext] = []
        for span in UInt64(1)...20 { held.append(roots.context(holding: reference(span))) }
        for (index, context) in held.enumerated() { XCTAssertEqual(context.spanContext?.spanID, SpanID(UInt64(index + 1))) }
    }

    func testAContextNoRequestHoldsAnyMoreTakesTheNextSpansReference() {
        let roots = RootContexts()
        _ = roots.context(holding: reference(1))
        let next = reference(2)
        let context = roots.context(holding: next)
        XCTAssertTrue(context.spanContextReference === next)
    }

    func testOnceAllAreKeptTheOldestIsTakenAndChangedInPlaceWhenNoRequestHoldsIt() throws {
        let roots = RootContexts()
        let storages = (UInt64(1)...UInt64(RootContexts.capacity)).map { ParentLookupMemo.storage(of: roots.context(holding: reference($0))) }
        let next = reference(100)
        let context = roots.context(holding: next)
        XCTAssertEqual(ParentLookupMemo.storage(of: context), try XCTUnwrap(storages.first), "the oldest kept storage, reused")
        XCTAssertTrue(context.spanContextReference === next)
        XCTAssertEqual(context.count, 1)
        let following = roots.context(holding: reference(101))
        XCTAssertEqual(ParentLookupMemo.storage(of: following), storages[1], "then the next oldest")
    }

    func testARootServerSpansContextIsAKeptOneHoldingItsRecording() throws {
        let tracer = OTelTracer(sampler: .alwaysOn, processor: RecordedSpans())
        var held: [ServiceContext] = []
        for _ in 0..<(RootContexts.capacity + 2) {
            let span = tracer.start("GET /health", context: .topLevel, ofKind: .server, at: 1)
            let recording = try XCTUnwrap(span.recording)
            var slow = OTelTracer.rootContext
            slow[SpanContextKey.self] = recording
            XCTAssertTrue(span.context.spanContextReference === recording)
            XCTAssertEqual(span.context.count, slow.count)
            XCTAssertEqual(span.context.spanContext, slow.spanContext)
            held.append(span.context)
            span.end()
        }
        XCTAssertEqual(Set(held.map { $0.spanContext?.spanID }).count, held.count, "a context a request holds keeps its span")
    }

    func testAServerSpansIdsAreTheOnesTheTracerReadsFromItsContext() throws {
        var remote = ServiceContext.topLevel
        let tracer = OTelTracer(sampler: .default, processor: RecordedSpans())
        tracer.extract(["traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00"], into: &remote, using: DictionaryCarrier())
        for sampler in [Sampler.alwaysOn, .alwaysOff, .traceIDRatio(0)] {
            let tracer = OTelTracer(sampler: sampler, processor: RecordedSpans())
            let local = tracer.startSpan("parent", ofKind: .internal)
            for context in [ServiceContext.topLevel, remote, local.context] {
                let start = tracer.startServerSpan("GET", context: context)
                XCTAssertEqual(try XCTUnwrap(start.identity), tracer.traceIdentity(of: start.span.context), "\(sampler)")
                start.span.end()
            }
            local.end()
        }
    }
}
