// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import Tracing

/// The span `OTelTracer` starts. A sampled span records into a `RecordingSpan` and is exported when
/// it ends; an unsampled one is its context alone (no allocation beyond it, nothing recorded), so
/// its ids still propagate with the sampled flag off.
public struct OTelSpan: Tracing.Span {
    /// An unrecorded span's context; a recorded span's parent's, its own made of it when read
    /// (`context`).
    private let base: ServiceContext
    /// What the span records; nil when it is not sampled.
    let recording: RecordingSpan?
    /// `base` is a recorded span's own context already (holding `recording`), made as it began.
    private let baseIsOwn: Bool

    /// A span that records nothing: `context` is its context as it is.
    init(context: ServiceContext) {
        base = context
        recording = nil
        baseIsOwn = true
    }

    /// A recorded span begun in `parent` (or, for a root span, a context holding `SpanContextKey`
    /// already, its value replaced by the span's: `OTelTracer.rootContext`).
    init(parent: ServiceContext, recording: RecordingSpan) {
        base = parent
        self.recording = recording
        baseIsOwn = false
    }

    /// A recorded span whose context, `context` (`SpanContextKey` holding `recording`), was made
    /// as it began: a root SERVER span's, from a kept context (`RootContexts`).
    init(context: ServiceContext, recording: RecordingSpan) {
        base = context
        self.recording = recording
        baseIsOwn = true
    }

    /// The span's context: a recorded span's parent's, with `SpanContextKey` holding the
    /// recording (the span is its context's reference: nothing boxed for it). Made when read,
    /// not as the span begins: this service's CLIENT spans never read theirs (their
    /// `traceparent` is written from the recording, `RecordedSpan.inject`), and the copy made,
    /// its key inserted and the copy destroyed cost about 1 k instructions a span. Made anew
    /// at each read, not kept: kept by the recording, it would hold the recording that holds it
    /// (a cycle); this service's spans read theirs once (the SERVER span's bound for its route,
    /// a stage's for its upstream). The tests hold it equal to the context made as the span begins.
    public var context: ServiceContext {
        guard let recording, !baseIsOwn else { return base }
        var context = base
        context[SpanContextKey.self] = recording
        return context
    }

    /// This span's ids (always present: the tracer sets them), read from the recording when there
    /// is one (no context made for them).
    public var spanContext: SpanContext? { recording?.spanContext ?? base.spanContext }

    public var operationName: String {
        get { recording?.name ?? "" }
        nonmutating set { recording?.name = newValue }
    }

    public var attributes: SpanAttributes {
        get { recording?.attributes ?? SpanAttributes() }
        nonmutating set { recording?.attributes = newValue }
    }

    /// Keeps `list` as it is for the export (no `SpanAttributes` built).
    public func addAttributes(_ list: SpanAttributeList) {
        recording?.addAttributes(list)
    }

    public var isRecording: Bool { recording != nil }

    public func setStatus(_ status: SpanStatus) {
        recording?.setStatus(status)
    }

    public func addEvent(_ event: SpanEvent) {
        recording?.addEvent(SpanRecord.Event(name: event.name, nanosecondsSinceEpoch: event.nanosecondsSinceEpoch, attributes: event.attributes))
    }

    /// An `exception` event with the semantic conventions' `exception.type` and `exception.message`.
    public func recordError<Instant: TracerInstant>(_ error: Error, attributes: SpanAttributes, at instant: @autoclosure () -> Instant) {
        guard let recording else { return }
        var attributes = attributes
        attributes["exception.type"] = SpanAttribute.string(String(describing: type(of: error)))
        attributes["exception.message"] = SpanAttribute.string(String(describing: error))
        recording.addEvent(SpanRecord.Event(name: "exception", nanosecondsSinceEpoch: instant().nanosecondsSinceEpoch, attributes: attributes))
    }

    /// Links to spans of this tracer only (a link's context must carry a `SpanContext`).
    public func addLink(_ link: SpanLink) {
        guard let recording, let target = link.context.spanContext else { return }
        recording.addLink(SpanRecord.Link(context: target, attributes: link.attributes))
    }

    public func end<Instant: TracerInstant>(at instant: @autoclosure () -> Instant) {
        recording?.end(at: instant().nanosecondsSinceEpoch)
    }
}
