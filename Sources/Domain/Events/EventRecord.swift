// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One event as the hub files it. A traced stage's event, published while nobody watches, keeps
/// its run's names through the run's `PipelineRun` (one reference) and becomes a
/// `PipelineEvent` only when read: a `PipelineEvent`'s shared fields object was an allocation
/// per event, and its release when the ring overwrote it about 250 instructions, for the ~3
/// events an avatar of `/users` publishes (callgrind) that almost no one ever reads.
struct EventRecord {
    enum Body {
        case event(PipelineEvent)
        case traced(PipelineRun, PipelineEvent.Kind, stage: String, at: Date, detail: String?)
    }

    let id: Int
    let body: Body

    /// The event as subscribers and replays see it.
    var event: PipelineEvent {
        switch body {
        case .event(let event):
            return event
        case .traced(let run, let kind, let stage, let date, let detail):
            return PipelineEvent(
                id: id, kind: kind, pipeline: run.pipeline, requestId: run.requestId, stage: stage, timestamp: date, detail: detail,
                traceId: run.traceId)
        }
    }
}
