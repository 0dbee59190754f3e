// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Tracing

/// The trace of a request whose SERVER span is not recorded (an unsampled trace), under a tracer
/// that keeps such a span's context for every span begun under it (`UnrecordedContextKeeping`):
/// the request carries this context. Carried along the pipeline, it was read and bound again at
/// every subscription, scheduled hop and upstream exchange of the request (Streams'
/// `ContextPropagation`), and each exchange began a span of it, only to come back to this same
/// context; carried on the request, a pipeline writes its fields once (`propagationFields()`)
/// and every exchange sends them as they are.
/// What code reading `ServiceContext.current` sees: the handler's synchronous code (routing,
/// building and subscribing its pipeline) sees this context, bound as a sampled request's is but
/// not carried (`ContextPropagation.withoutCarrying`), so a library's span begun there joins the
/// trace; code on a later hop of the pipeline (a scheduler's turn, an upstream's answer) finds
/// none, and the service's own spans there take the request's (`PipelineTrace`). The slow twin
/// is a tracer that does not promise it: its unsampled requests are bound and carried as sampled
/// ones are (the tests hold the two to the same fields sent upstream).
public struct UnrecordedTrace: Sendable {
    /// The SERVER span's context, which every span begun under it would be.
    public let context: ServiceContext
    /// The tracer that began the span.
    public let tracer: any Tracer

    /// The trace of `context`, begun by `tracer`.
    public init(context: ServiceContext, tracer: any Tracer) {
        self.context = context
        self.tracer = tracer
    }

    /// What the tracer writes into an outgoing request for this context (`traceparent`, and
    /// `tracestate` when there is one).
    public func propagationFields() -> HTTPHeaders {
        var fields = HTTPHeaders()
        tracer.inject(context, into: &fields, using: HTTPHeadersInjector())
        return fields
    }
}

/// A tracer under which every span begun in a context whose span it did not record (unsampled,
/// started in this process) is that context as it is: no id of its own, nothing recorded, the
/// same fields injected. A server with such a tracer carries an unsampled request's context on
/// the request (`UnrecordedTrace`) instead of binding it. Ending such a span (unrecorded, begun
/// by this tracer) does nothing, so the server does not keep it to end it.
public protocol UnrecordedContextKeeping: Sendable {}

/// A tracer whose `extract` finds a parent in a `traceparent` field alone (W3C Trace Context:
/// `tracestate` counts only beside one): from a request without that field it extracts nothing.
/// A server whose parser noted that no such field came (`HeadNotes.hasTraceparent`) then skips
/// the extraction, a search of the request's fields for each name; any other tracer is asked
/// every time (the slow twin: the tests hold the two to the same SERVER spans).
public protocol TraceparentExtracting: Sendable {}
