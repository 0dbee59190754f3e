// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTP

/// One entry of the process's event log (`PipelineEventHub.log`), the thing `/events` sends.
///
/// A traced stage's event, filed while nobody watches, keeps its run's names through the run's
/// `PipelineRun` (one reference) and becomes a `PipelineEvent` only when read: a `PipelineEvent`'s
/// shared fields object was an allocation per event, and its release when the log overwrote it
/// about 250 instructions, for the ~3 events an avatar of `/users` publishes (callgrind) that
/// almost no one ever reads.
public enum EventLogItem: Sendable {
    /// A pipeline event; its `id` is ignored, the log's number is the id.
    case pipeline(PipelineEvent)
    case traced(PipelineRun, PipelineEvent.Kind, stage: String, at: Date, detail: String?)
    /// A clock tick (`--events-clock`): `event: tick`, `data: tick K`, filed under the pipeline `clock`.
    case clockTick(Int)

    /// The pipeline clock ticks are filed under.
    public static let clockPipeline = "clock"
    public static let tickEvent = "tick"

    public static func tickData(_ index: Int) -> String { "tick \(index)" }

    /// The pipeline event with `id`; nil for a clock tick.
    public func event(id: Int) -> PipelineEvent? {
        switch self {
        case .pipeline(var event):
            event.id = id
            return event
        case .traced(let run, let kind, let stage, let date, let detail):
            return PipelineEvent(id: id, kind: kind, pipeline: run.pipeline, requestId: run.requestId, stage: stage, timestamp: date, detail: detail, traceId: run.traceId)
        case .clockTick:
            return nil
        }
    }

    public var pipeline: String {
        switch self {
        case .pipeline(let event): event.pipeline
        case .traced(let run, _, _, _, _): run.pipeline
        case .clockTick: Self.clockPipeline
        }
    }

    /// A clock tick counts as `data`.
    public var kind: PipelineEvent.Kind {
        switch self {
        case .pipeline(let event): event.kind
        case .traced(_, let kind, _, _, _): kind
        case .clockTick: .data
        }
    }

    /// The SSE message under log id `id`: the event's JSON is written here, once, with that id.
    /// A tick's comment line `: at <Unix seconds>` is when it was encoded (published to its first
    /// clients, or replayed to the first resume), so a load client measures delivery lag from it.
    public func message(id: Int) -> ServerSentEvent {
        if case .clockTick(let index) = self {
            return ServerSentEvent(event: Self.tickEvent, data: Self.tickData(index), comment: Self.stamp())
        }
        return ServerSentEvent(event: kind.rawValue, data: event(id: id)?.json ?? "{}")
    }

    /// `at 1732456789.123456`: now, in Unix seconds to the microsecond.
    static func stamp() -> String {
        let microseconds = Int((Date().timeIntervalSince1970 * 1_000_000).rounded())
        let fraction = String(microseconds % 1_000_000)
        return "at \(microseconds / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)"
    }
}
