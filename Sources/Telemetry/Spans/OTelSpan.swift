// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import Tracing

/// The span `OTelTracer` starts. A sampled span records into a `RecordingSpan` and is exported when
/// it ends; an unsampled one is its context alone (no allocation beyond it, nothing recorded), so
/// its ids still propagate with the sampled flag off.
public struct OTelSpan: Tracing.Span {
    public let context: ServiceContext
    /// What the span records; nil when it is not sampled.
    let recording: RecordingSpan?

    init(context: ServiceContext, recording: RecordingSpan?) {
        self.context = context
        self.recording = recording
    }

    /// This span's ids (always present: the tracer sets them).
    public var spanContext: SpanContext? { context.spanContext }

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
