// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import Streams
import Synchronization
import Tracing

/// An INTERNAL span over a pipeline stage (the avatar fan-out, `toArray`, a profile's zip), so a
/// trace reads like the marble diagram: begun when the stage is subscribed, as a child of the
/// subscription's context; the stage's upstream is subscribed in the span's context (the
/// upstream exchanges under it become its children); ended by the stage's end, error or disposal.
final class StageSpan: Sendable {
    let span: any Span
    /// The span's recording, reached directly (see `UpstreamSpan.recorded`); nil: the slow twin.
    private let recorded: (any RecordedSpan)?
    private let ended = Atomic<Bool>(false)

    init(_ name: String, tracer: any Tracer, lists: (any SpanAttributeListTaking)?, attributes: SpanAttributeList) {
        (span, recorded) = tracer.startSpan(name, context: ServiceContext.current ?? .topLevel, ofKind: .internal, lists: lists)
        guard !attributes.isEmpty else { return }
        if let recorded {
            recorded.addAttributes(attributes)
        } else if span.isRecording {
            attributes.add(to: span, taker: lists)
        }
    }

    var isRecording: Bool { recorded != nil || span.isRecording }

    func end(error: (any Error)? = nil) {
        guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
        if let error {
            span.recordError(error)
            span.setStatus(SpanStatus(code: .error))
        }
        if let recorded { return recorded.end(adding: SpanAttributeList()) }
        span.end()
    }
}

extension StreamType {
    /// This stage inside an INTERNAL span named `name` (see `StageSpan`) of `client`'s tracer;
    /// itself when the client does not trace or `trace`'s request is not recorded (the span
    /// would be its context as it is).
    func spanned(_ name: String, by client: GitHubClient, trace: PipelineTrace?, attributes: SpanAttributeList = [:]) -> DataStream<Element> {
        guard let tracer = client.tracer, trace?.unrecordedFields == nil else { return asDataStream() }
        let lists = client.attributeLists
        return DataStream.deferred {
            let stage = StageSpan(name, tracer: tracer, lists: lists, attributes: attributes)
            // Unsampled: nothing to record or end, and the stage's exchanges go on in the caller's context.
            guard stage.isRecording else { return self.asDataStream() }
            return self.inContext(stage.span.context)
                .call(error: { stage.end(error: $0) }, end: { stage.end() }, disposed: { stage.end() })
        }
    }
}
