// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

@testable import Telemetry
import Tracing
import TracingTestSupport
import XCTest

/// A recorded span's `context`, made when read (`OTelSpan.context`), is the context made as the
/// span began (the parent's, `SpanContextKey` holding the recording): the same ids, parent,
/// sampled flag and the parent's other values.
final class LazySpanContextTests: XCTestCase {
    private let tracer = OTelTracer(sampler: .default, processor: RecordedSpans())

    private enum Tenant: ServiceContextKey { typealias Value = String }

    /// The context `start` made as the span began, before it was made when read.
    private func eagerContext(of span: OTelSpan, parent: ServiceContext) throws -> ServiceContext {
        var context = parent.isEmpty ? OTelTracer.rootContext : parent
        context[SpanContextKey.self] = try XCTUnwrap(span.recording)
        return context
    }

    private func assertSame(_ lazy: ServiceContext, _ eager: ServiceContext, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(lazy.spanContext, eager.spanContext, file: file, line: line)
        XCTAssertTrue(lazy.spanContextReference === eager.spanContextReference, file: file, line: line)
        XCTAssertEqual(lazy[Tenant.self], eager[Tenant.self], file: file, line: line)
        XCTAssertEqual(lazy.count, eager.count, file: file, line: line)
    }

    func testAChildsContextMadeWhenReadIsTheOneMadeAsItBegan() throws {
        var parent = tracer.start("GET /users", context: .topLevel, ofKind: .server, at: 1).context
        parent[Tenant.self] = "acme"
        let child = tracer.start("GET", context: parent, ofKind: .client, at: 2)
        let recording = try XCTUnwrap(child.recording)
        assertSame(child.context, try eagerContext(of: child, parent: parent))
        XCTAssertEqual(child.context.spanContext?.traceID, parent.spanContext?.traceID)
        XCTAssertEqual(child.context.spanContext?.spanID, recording.spanContext.spanID)
        XCTAssertEqual(recording.parentSpanID, parent.spanContext?.spanID)
        XCTAssertEqual(child.context.spanContext?.isSampled, true)
        XCTAssertEqual(child.context[Tenant.self], "acme")
    }

    func testARootSpansContextHoldsItsOwnIdsNotTheTemplates() throws {
        let root = tracer.start("GET /users", context: .topLevel, ofKind: .server, at: 1)
        let recording = try XCTUnwrap(root.recording)
        assertSame(root.context, try eagerContext(of: root, parent: .topLevel))
        XCTAssertEqual(root.context.spanContext, recording.spanContext)
        XCTAssertEqual(root.spanContext, recording.spanContext)
        XCTAssertEqual(root.context.count, 1)
    }

    func testARootSpanOfAnyKindHoldsItsOwnIdsWhetherItsContextIsMadeAsItBeginsOrWhenRead() throws {
        // A root SERVER span's context is made as it begins (`RootContexts`), another's when read.
        for kind in [SpanKind.server, .client, .internal] {
            let root = tracer.start("root", context: .topLevel, ofKind: kind, at: 1)
            let recording = try XCTUnwrap(root.recording)
            assertSame(root.context, try eagerContext(of: root, parent: .topLevel))
            XCTAssertEqual(root.context.spanContext, recording.spanContext, "\(kind)")
            XCTAssertNil(recording.parentSpanID, "\(kind)")
        }
    }

    func testAnExtractedParentsChildKeepsItsTraceStateInAContextMadeWhenRead() throws {
        var remote = ServiceContext.topLevel
        tracer.extract(
            ["traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "tracestate": "vendor=a"], into: &remote,
            using: DictionaryCarrier())
        let span = tracer.start("GET /users", context: remote, ofKind: .server, at: 1)
        assertSame(span.context, try eagerContext(of: span, parent: remote))
        XCTAssertEqual(span.context.spanContext?.traceState, "vendor=a")
        XCTAssertEqual(span.context.spanContext?.traceID.description, "0af7651916cd43dd8448eb211c80319c")
    }

    func testARecordingsContextInItsParentIsItsSpansContext() throws {
        var parent = tracer.start("GET /users", context: .topLevel, ofKind: .server, at: 1).context
        parent[Tenant.self] = "acme"
        for context in [ServiceContext.topLevel, parent] {
            let span = tracer.start("GET", context: context, ofKind: .client, at: 2)
            assertSame(try XCTUnwrap(span.recording).context(in: context), span.context)
        }
    }

    func testEachReadOfAContextGivesTheSameContextAndAGrandchildNamesTheChild() throws {
        let parent = tracer.start("GET /users", context: .topLevel, ofKind: .server, at: 1)
        let child = tracer.start("stage", context: parent.context, ofKind: .internal, at: 2)
        assertSame(child.context, child.context)
        let grandchild = tracer.start("GET", context: child.context, ofKind: .client, at: 3)
        XCTAssertEqual(grandchild.recording?.parentSpanID, child.recording?.spanContext.spanID)
        XCTAssertEqual(grandchild.recording?.spanContext.traceID, parent.recording?.spanContext.traceID)
    }
}
