// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

@testable import Telemetry
import Tracing
import TracingTestSupport
import XCTest

/// `ServiceContext.spanContextReference` (the entries walked, the value's type compared) finds
/// what its slow twin, the keyed read, finds.
final class SpanContextLookupTests: XCTestCase {
    private let tracer = OTelTracer(sampler: .default, processor: RecordedSpans())

    private func assertTwinsAgree(_ context: ServiceContext, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(context.spanContextReference === context.spanContextReferenceByKey, file: file, line: line)
    }

    /// `base` with `others` keys of other kinds set besides.
    private func adding(_ others: Int, to base: ServiceContext) -> ServiceContext {
        var context = base
        for set in OtherKeys.setters.prefix(others) { set(&context) }
        return context
    }

    func testARecordedSpansContextGivesItsRecordingByEitherRead() throws {
        let span = tracer.start("parent", context: .topLevel, ofKind: .server, at: 1)
        let recording = try XCTUnwrap(span.recording)
        XCTAssertTrue(span.context.spanContextReference === recording)
        assertTwinsAgree(span.context)
    }

    func testAnExtractedParentIsFoundByEitherRead() {
        var context = ServiceContext.topLevel
        tracer.extract(["traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"], into: &context, using: DictionaryCarrier())
        XCTAssertEqual(context.spanContextReference?.spanContext.spanID.description, "b7ad6b7169203331")
        assertTwinsAgree(context)
    }

    func testAContextWithoutASpanGivesNothingByEitherRead() {
        XCTAssertNil(ServiceContext.topLevel.spanContextReference)
        XCTAssertNil(adding(2, to: .topLevel).spanContextReference)
        assertTwinsAgree(adding(2, to: .topLevel))
    }

    func testASpanBesideOtherKeysIsFoundWhetherTheEntriesAreWalkedOrNot() throws {
        let span = tracer.start("parent", context: .topLevel, ofKind: .server, at: 1)
        for others in [1, ServiceContext.walkedEntries - 1, ServiceContext.walkedEntries + 2] {
            let context = adding(others, to: span.context)
            XCTAssertTrue(context.spanContextReference === span.recording, "\(others) other keys")
            assertTwinsAgree(context)
        }
    }

    func testTheParentMemoAnswersAContextAskedAgainAsTheWalkDoes() throws {
        let memo = ParentLookupMemo()
        let span = tracer.start("parent", context: .topLevel, ofKind: .server, at: 1)
        let context = span.context
        XCTAssertTrue(memo.reference(in: context) === context.spanContextReference)
        XCTAssertTrue(memo.reference(in: context) === context.spanContextReference)
        let copy = context
        XCTAssertTrue(memo.reference(in: copy) === span.recording)
    }

    func testTheParentMemoAnswersAContextChangedFromTheKeptOneAsTheWalkDoes() throws {
        let memo = ParentLookupMemo()
        let parent = tracer.start("parent", context: .topLevel, ofKind: .server, at: 1)
        var context = parent.context
        XCTAssertTrue(memo.reference(in: context) === parent.recording)
        let child = tracer.start("child", context: context, ofKind: .client, at: 2)
        context[SpanContextKey.self] = child.recording
        XCTAssertTrue(memo.reference(in: context) === child.recording)
        XCTAssertTrue(memo.reference(in: context) === context.spanContextReference)
        XCTAssertTrue(memo.reference(in: parent.context) === parent.recording)
    }

    func testTheParentMemoAnswersNilForAContextWithoutASpanAsTheWalkDoes() throws {
        let memo = ParentLookupMemo()
        let span = tracer.start("parent", context: .topLevel, ofKind: .server, at: 1)
        _ = memo.reference(in: span.context)
        XCTAssertNil(memo.reference(in: adding(2, to: .topLevel)))
        XCTAssertNil(memo.reference(in: .topLevel))
    }

    func testSpansBegunInOneContextAreChildrenOfItsSpan() throws {
        let parent = tracer.start("parent", context: .topLevel, ofKind: .server, at: 1)
        let context = parent.context
        for _ in 0..<3 {
            let child = tracer.start("child", context: context, ofKind: .client, at: 2)
            let recording = try XCTUnwrap(child.recording)
            XCTAssertEqual(recording.parentSpanID, parent.spanContext?.spanID)
            XCTAssertEqual(recording.spanContext.traceID, parent.spanContext?.traceID)
        }
    }
}

/// Keys of other kinds, for contexts with more entries than the span's.
private enum OtherKeys {
    enum K1: ServiceContextKey { typealias Value = String }
    enum K2: ServiceContextKey { typealias Value = String }
    enum K3: ServiceContextKey { typealias Value = String }
    enum K4: ServiceContextKey { typealias Value = String }
    enum K5: ServiceContextKey { typealias Value = String }
    enum K6: ServiceContextKey { typealias Value = String }

    /// Each sets one of the keys.
    static let setters: [@Sendable (inout ServiceContext) -> Void] = [
        { $0[K1.self] = "1" }, { $0[K2.self] = "2" }, { $0[K3.self] = "3" },
        { $0[K4.self] = "4" }, { $0[K5.self] = "5" }, { $0[K6.self] = "6" },
    ]
}
