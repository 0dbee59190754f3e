// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import Tracing

/// An OpenTelemetry tracer for swift-distributed-tracing: W3C Trace Context in and out, the SDK's
/// samplers, and finished sampled spans handed to a `SpanProcessor` (usually the
/// `BatchSpanProcessor` over the `OTLPHTTPExporter`).
///
/// ```swift
/// let tracer = OTelTracer(sampler: .default, processor: processor)
/// TracingSystem.install(tracer)   // InstrumentationSystem.bootstrap, once per process
/// ```
public final class OTelTracer: Tracer, Sendable {
    public typealias Span = OTelSpan

    public let sampler: Sampler
    public let processor: any SpanProcessor
    /// Where the spans go as they end, shared by all of them.
    private let sink: SpanSink
    /// The parent's span context last looked up, with its context (`start`).
    private let parents = ParentLookupMemo()
    /// Root spans' contexts, their storage reused (`start`).
    private let roots = RootContexts()

    public init(sampler: Sampler = .default, processor: any SpanProcessor) {
        self.sampler = sampler
        self.processor = processor
        sink = SpanSink(processor)
    }

    /// A child of the context's span (local or extracted), or the root of a new trace. The sampler
    /// decides; an unsampled span keeps its ids (trace-flags `00`) and records nothing.
    /// An unsampled child of an unsampled span of this process is that span's context as it is:
    /// nothing of it is recorded or exported, so a new id would only be drawn, stored in a copy
    /// of the context and sent on for nothing; the next hop sees the same trace, flags `00`, and
    /// the parent's id (a request's upstream exchanges in an unsampled trace cost no span each).
    public func startSpan<Instant: TracerInstant>(
        _ operationName: String, context: @autoclosure () -> ServiceContext, ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant, function: String, file fileID: String, line: UInt
    ) -> OTelSpan {
        start(operationName, context: context(), ofKind: kind, at: instant().nanosecondsSinceEpoch)
    }

    /// `startSpan` without its generic clock and autoclosures (about 300 instructions a span):
    /// what this service's own spans begin with (`startRecordedSpan`).
    func start(_ operationName: String, context: ServiceContext, ofKind kind: SpanKind, at startNanoseconds: @autoclosure () -> UInt64) -> OTelSpan {
        start(operationName, context: context, ofKind: kind, at: startNanoseconds(), identity: nil)
    }

    /// `start`, naming the span's ids in `identity` when given (what `traceIdentity(of: span.context)`
    /// reads; not made for a CLIENT span, about 30 instructions a span) as it begins the span: an
    /// unrecorded span's are otherwise read back out of its context (a walk of its entries, about
    /// 550 instructions a SERVER span).
    func start(
        _ operationName: String, context: ServiceContext, ofKind kind: SpanKind, at startNanoseconds: @autoclosure () -> UInt64,
        identity: UnsafeMutablePointer<TraceIdentity?>?
    ) -> OTelSpan {
        var context = context
        // The parent's fields read where they lie, in its reference: a `SpanContext` copied out of
        // it and destroyed after cost about 280 instructions a span. Looked up through the memo:
        // a request's exchanges begin their spans in one context.
        let parent = context.isEmpty ? nil : parents.reference(in: context)
        let traceID = parent?.spanContext.traceID ?? TraceID.random()
        let sampled = sampler.shouldSample(traceID: traceID, parentSampled: parent?.spanContext.isSampled)
        if !sampled, let parent, !parent.spanContext.isSampled, !parent.spanContext.isRemote {
            identity?.pointee = Self.identity(of: parent.spanContext)
            return OTelSpan(context: context)
        }
        let spanContext = SpanContext(traceID: traceID, spanID: .random(), isSampled: sampled, traceState: parent?.spanContext.traceState)
        identity?.pointee = Self.identity(of: spanContext)
        // A root span's context (a request without `traceparent`) is begun from one holding the
        // key already: copied and its value replaced, where an empty one grew its storage and
        // hashed the key twice (about 300 instructions a SERVER span); an unrecorded one's from
        // a kept one whose storage no request holds any more, replaced in place (`RootContexts`).
        let root = parent == nil && context.isEmpty
        guard sampled else {
            if root { return OTelSpan(context: roots.context(holding: SpanContextReference(spanContext))) }
            context.spanContext = spanContext
            return OTelSpan(context: context)
        }
        let recording = RecordingSpan(
            name: operationName, context: spanContext, parentSpanID: parent?.spanContext.spanID, kind: kind,
            startNanoseconds: startNanoseconds(), sink: sink)
        guard root else {
            // The span's context is made of `context` when read (`OTelSpan.context`): a CLIENT
            // span's never is (about 1 k instructions a span).
            return OTelSpan(parent: context, recording: recording)
        }
        // A root SERVER span's context is read, bound for its route: made now of a kept one,
        // in place (`RootContexts`), where made when read it copied the shared root context and
        // freed the copy with the request (about 1 k instructions). Another root span's is made
        // when read, if ever.
        if kind == .server { return OTelSpan(context: roots.context(holding: recording), recording: recording) }
        return OTelSpan(parent: Self.rootContext, recording: recording)
    }

    /// A context holding `SpanContextKey` alone (its value a placeholder, replaced by each
    /// root span begun from it).
    static let rootContext: ServiceContext = {
        var context = ServiceContext.topLevel
        context[SpanContextKey.self] = SpanContextReference(SpanContext(traceID: TraceID(high: 0, low: 1), spanID: SpanID(1), isSampled: false))
        return context
    }()

    /// Exports what has ended so far (in the background; `processor.forceFlush` reports when done).
    public func forceFlush() {
        processor.forceFlush {}
    }

    /// Reads `traceparent` and `tracestate`; a malformed `traceparent` leaves the context without a
    /// parent (the request starts a new trace), and `tracestate` counts only beside a valid one.
    public func extract<Carrier, Extract: Extractor>(_ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract)
    where Extract.Carrier == Carrier {
        guard let header = extractor.extract(key: W3CHeader.traceparent, from: carrier), var parent = TraceParent.parse(header) else { return }
        parent.traceState = extractor.extract(key: W3CHeader.tracestate, from: carrier).flatMap(TraceState.validate)
        context.spanContext = parent
    }

    /// Writes the context's span as `traceparent` (and its `tracestate`, when there is one).
    public func inject<Carrier, Inject: Injector>(_ context: ServiceContext, into carrier: inout Carrier, using injector: Inject)
    where Inject.Carrier == Carrier {
        guard let spanContext = context.spanContext else { return }
        injector.inject(spanContext.traceparent, forKey: W3CHeader.traceparent, into: &carrier)
        if let state = spanContext.traceState {
            injector.inject(state, forKey: W3CHeader.tracestate, into: &carrier)
        }
    }
}

/// `startSpan` keeps an unsampled local parent's context for its children, and the sampler
/// decides a trace's spans alike (by its id, or after the parent), so an unsampled span of this
/// process has no sampled descendant here.
extension OTelTracer: UnrecordedContextKeeping {}

/// `extract` reads `tracestate` only beside a valid `traceparent`.
extension OTelTracer: TraceparentExtracting {}

extension OTelTracer: SpanAttributeListTaking {
    public func addAttributes(_ list: SpanAttributeList, to span: any Tracing.Span) -> Bool {
        guard let span = span as? OTelSpan else { return false }
        span.addAttributes(list)
        return true
    }

    public func startRecordedSpan(_ name: String, context: ServiceContext, ofKind kind: SpanKind) -> (span: any Tracing.Span, recorded: (any RecordedSpan)?) {
        let span = start(name, context: context, ofKind: kind, at: DefaultTracerClock.now.nanosecondsSinceEpoch)
        return (span, span.recording)
    }

    /// The recording alone when the span records: no `OTelSpan` existential made, retaining its
    /// parent's context and its recording, and destroyed with them.
    public func startSpanOrRecording(_ name: String, context: ServiceContext, ofKind kind: SpanKind) -> StartedSpan {
        let span = start(name, context: context, ofKind: kind, at: DefaultTracerClock.now.nanosecondsSinceEpoch)
        if let recording = span.recording { return .recorded(recording) }
        return .span(span)
    }

    public func startServerSpan(_ name: String, context: ServiceContext) -> ServerSpanStart {
        var identity: TraceIdentity?
        let span = withUnsafeMutablePointer(to: &identity) {
            start(name, context: context, ofKind: .server, at: DefaultTracerClock.now.nanosecondsSinceEpoch, identity: $0)
        }
        return ServerSpanStart(span: span, recorded: span.recording, identity: identity)
    }
}

extension RecordingSpan {
    /// `inject(into:)`'s `traceparent` as ids, when it writes no `tracestate`.
    var traceParent: TraceParentIDs? {
        guard context.traceState == nil else { return nil }
        return context.traceParentIDs
    }
}

extension OTelTracer: TraceIdentityReading {
    /// The ids `inject` writes for `context`, read from its span context directly, as numbers
    /// (written as hex only when read).
    public func traceIdentity(of context: ServiceContext) -> TraceIdentity? {
        guard let reference = context.spanContextReference else { return nil }
        return Self.identity(of: reference.spanContext)
    }

    static func identity(of spanContext: SpanContext) -> TraceIdentity {
        TraceIdentity(
            traceHigh: spanContext.traceID.high, traceLow: spanContext.traceID.low, spanID: spanContext.spanID.value, sampled: spanContext.isSampled)
    }
}

/// The W3C Trace Context header names (lowercase: HTTP/2 requires it, HTTP/1.1 ignores case).
public enum W3CHeader {
    public static let traceparent = TraceParentIDs.fieldName
    public static let tracestate = "tracestate"
}
