// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTP
import NetCore
import StreamServiceConcurrency
import Streams

/// `/events`' source: the hub's event log (`PipelineEventHub.log`), plus optional clock ticks
/// filed in the same log, so they share its numbering.
///
/// - a pipeline event: `event: <kind>` (subscribe, data, …), `data: <PipelineEvent JSON>`;
/// - a clock tick (with `--events-clock`): `event: tick`, `data: tick K`, the
///   pseudo-pipeline `clock` — a steady broadcast for load tests and demos. Its comment
///   line `: at <Unix seconds>` is when it was published to the clients, so a load client
///   measures delivery lag from the event itself (browsers ignore comments).
///
/// SSE ids are the log's (1, 2, 3, …, or Redis' when shared) for `Last-Event-ID` resume.
public final class PipelineEventFeed: Sendable {
    public typealias Item = EventLogItem

    /// The pipeline name clock ticks are filed under.
    public static let clockPipeline = EventLogItem.clockPipeline

    private let hub: PipelineEventHub

    /// - Parameter catchUpWait: how long a client whose `Last-Event-ID` is ahead of this replica
    ///   waits for the shared feed to reach it; nil (one process) = `reset` at once.
    public init(hub: PipelineEventHub, catchUpWait: Duration? = nil) {
        self.hub = hub
        hub.log.catchUpWait = catchUpWait
    }

    /// The event log clients subscribe to.
    public var log: SSEBroadcaster<Item> { hub.log }

    static let tickEvent = EventLogItem.tickEvent

    static func tickData(_ index: Int) -> String { EventLogItem.tickData(index) }

    /// Starts a tick every `clock` when given; with `shared`, sends this process's events and
    /// ticks to Redis, and the log gets them back from there. Dispose to stop.
    ///
    /// Ticks are published from `scheduler` (one serial queue); pipeline events are filed on the
    /// thread that ran the pipeline, and the log hands each subscriber's copy to that
    /// subscriber's own event loop, so fanning one out never runs on the pipeline's thread.
    func start(clock: Duration?, scheduler: any Scheduler = QueueScheduler(label: "events.feed"), shared: SharedEventFeed? = nil) -> Disposable {
        let events: Disposable
        let tick: @Sendable (Int) -> Void
        if let shared {
            events = hub.share(through: { shared.publish($0) })
            tick = { shared.publishTick($0) }
        } else {
            events = Disposable()
            tick = { [log] in log.publish(.clockTick($0)) }
        }
        guard let clock, clock > .zero else { return events }
        let ticks = DataStream.interval(clock, scheduler: scheduler).watch(data: { tick($0) })
        return Disposable {
            events.dispose()
            ticks.dispose()
        }
    }

    /// The feed for one client, as `SSEBroadcaster.subscribe` gives it.
    public func subscribe(
        after lastSeen: Int? = nil, on loop: EventLoop? = nil, where admits: @escaping @Sendable (Item) -> Bool = { _ in true }
    ) -> DataStream<[UInt8]> {
        log.subscribe(after: lastSeen, on: loop, where: admits)
    }

    /// The id of the last item in the log.
    public var lastID: Int { log.lastID }

    /// The item a shared-stream entry carries: the event as published (its JSON read back); the
    /// log writes its JSON again with the entry's id, the same on every replica.
    static func item(from entry: SharedFeedIngest.Entry) -> Item? {
        if entry.event == tickEvent {
            return Int(entry.data.dropFirst("tick ".count)).map(Item.clockTick)
        }
        guard PipelineEvent.Kind(rawValue: entry.event) != nil,
              let event = try? JSONDecoder().decode(PipelineEvent.self, from: Data(entry.data.utf8)) else { return nil }
        return .pipeline(event)
    }

    /// Whether a subscriber with `filter` wants `item`; clock ticks count as `data` events of pipeline `clock`.
    static func admits(_ item: Item, _ filter: PipelineEventFilter) -> Bool {
        (filter.pipeline == nil || filter.pipeline == item.pipeline) && (filter.kinds?.contains(item.kind) ?? true)
    }

    /// The pipeline `item` belongs to; clock ticks to `clock`.
    static func pipeline(of item: Item) -> String { item.pipeline }
}
