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

/// `/events`' source: the Domain hub's pipeline events, plus optional clock
/// ticks, each encoded once into an SSE message and shared by every client.
///
/// - a pipeline event: `event: <kind>` (subscribe, data, …), `data: <PipelineEvent JSON>`;
/// - a clock tick (with `--events-clock`): `event: tick`, `data: tick K`, the
///   pseudo-pipeline `clock` — a steady broadcast for load tests and demos. Its comment
///   line `: at <Unix seconds>` is when it was published to the clients, so a load client
///   measures delivery lag from the event itself (browsers ignore comments).
///
/// SSE ids number the feed's messages (1, 2, 3, …) for `Last-Event-ID` resume.
public final class PipelineEventFeed: Sendable {
    public enum Item: Sendable {
        case pipeline(PipelineEvent)
        /// A pipeline event read from the shared stream, its JSON kept as published (no decode and re-encode per replica).
        case shared(kind: PipelineEvent.Kind, pipeline: String, json: String)
        case clockTick(Int)
    }

    /// The pipeline name clock ticks are filed under.
    public static let clockPipeline = "clock"

    public let broadcaster: SSEBroadcaster<Item>
    private let hub: PipelineEventHub
    /// Set while the feed runs without a shared feed.
    private let relay = Locked<PipelineEventRelay?>(nil)

    /// - Parameters:
    ///   - history: messages kept for `Last-Event-ID` resume (`--events-history`); nil = as many as
    ///     the hub keeps. More than the hub keeps would not help: what the hub has dropped before a
    ///     catch-up never reaches the feed.
    ///   - catchUpWait: how long a client whose `Last-Event-ID` is ahead of this replica
    ///     waits for the shared feed to reach it; nil (one process) = `reset` at once.
    public init(hub: PipelineEventHub, history: Int? = nil, catchUpWait: Duration? = nil) {
        self.hub = hub
        broadcaster = SSEBroadcaster(capacity: history ?? hub.replayCapacity, catchUpWait: catchUpWait) { item in
            switch item {
            case .pipeline(let event): ServerSentEvent(event: event.kind.rawValue, data: Self.json(event))
            case .shared(let kind, _, let json): ServerSentEvent(event: kind.rawValue, data: json)
            case .clockTick(let index): ServerSentEvent(event: Self.tickEvent, data: Self.tickData(index), comment: Self.stamp())
            }
        }
    }

    static let tickEvent = "tick"

    static func tickData(_ index: Int) -> String { "tick \(index)" }

    /// `at 1732456789.123456`: now, in Unix seconds to the microsecond. A tick is encoded when it
    /// is published to its first clients (or, published to nobody, when a resume first replays it).
    static func stamp() -> String {
        let microseconds = Int((Date().timeIntervalSince1970 * 1_000_000).rounded())
        let fraction = String(microseconds % 1_000_000)
        return "at \(microseconds / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)"
    }

    /// Starts forwarding the hub's events and, when `clock` is given, a tick every `clock`; dispose to stop.
    ///
    /// Ticks are published from `scheduler` (one serial queue), and so are pipeline events
    /// while clients are connected (see `PipelineEventRelay`): the hub delivers under its
    /// lock on whichever thread ran the pipeline, often an event loop, and fanning an event
    /// out to thousands of clients there would stall that loop's requests.
    ///
    /// With `shared`, both go to Redis instead, and reach the broadcaster from there.
    func start(clock: Duration?, scheduler: any Scheduler = QueueScheduler(label: "events.feed"), shared: SharedEventFeed? = nil) -> Disposable {
        let events: Disposable
        let tick: @Sendable (Int) -> Void
        if let shared {
            events = hub.events().observe(on: scheduler).watch(data: { delivery in
                guard case .event(let event) = delivery else { return }
                shared.publish(event)
            })
            tick = { shared.publishTick($0) }
        } else {
            let relay = PipelineEventRelay(hub: hub, to: broadcaster, on: scheduler)
            self.relay.withLock { $0 = relay }
            events = Disposable {
                self.relay.withLock { $0 = nil }
                relay.stop()
            }
            tick = { relay.tick($0) }
        }
        guard let clock, clock > .zero else { return events }
        let ticks = DataStream.interval(clock, scheduler: scheduler).watch(data: { tick($0) })
        return Disposable {
            events.dispose()
            ticks.dispose()
        }
    }

    /// The feed for one client, as `SSEBroadcaster.subscribe` gives it; while the feed runs
    /// without `shared`, the pipeline events published so far are in the broadcaster before the
    /// client's resume is read, and events reach it live until it leaves.
    public func subscribe(
        after lastSeen: Int? = nil, on loop: EventLoop? = nil, where admits: @escaping @Sendable (Item) -> Bool = { _ in true }
    ) -> DataStream<[UInt8]> {
        let feed = broadcaster.subscribe(after: lastSeen, on: loop, where: admits)
        guard let relay = relay.withLock({ $0 }) else { return feed }
        return feed.call(watched: { relay.join() }, disposed: { relay.leave() })
    }

    /// The id of the last item, pipeline events published so far included.
    public var lastID: Int {
        relay.withLock { $0 }?.catchUp()
        return broadcaster.lastID
    }

    /// The item a shared-stream entry carries, its JSON id set to the entry's (the same on every replica).
    static func item(from entry: SharedFeedIngest.Entry) -> Item? {
        if entry.event == tickEvent {
            return Int(entry.data.dropFirst("tick ".count)).map(Item.clockTick)
        }
        guard let kind = PipelineEvent.Kind(rawValue: entry.event) else { return nil }
        return .shared(kind: kind, pipeline: entry.pipeline, json: numbered(entry.data, id: entry.id))
    }

    /// The JSON of an event published with id 0 (see `SharedEventFeed.publish`), with `id` set.
    /// With sorted keys the object's own `"id":0,` is the only unescaped one: inside a string
    /// value the quotes would be escaped.
    static func numbered(_ json: String, id: Int) -> String {
        var json = json
        guard let range = json.firstRange(of: #""id":0,"#) else { return json }
        json.replaceSubrange(range, with: #""id":\#(id),"#)
        return json
    }

    /// Whether a subscriber with `filter` wants `item`; clock ticks count as `data` events of pipeline `clock`.
    static func admits(_ item: Item, _ filter: PipelineEventFilter) -> Bool {
        switch item {
        case .pipeline(let event):
            return filter.admits(event)
        case .shared(let kind, let pipeline, _):
            return (filter.pipeline == nil || filter.pipeline == pipeline) && (filter.kinds?.contains(kind) ?? true)
        case .clockTick:
            return (filter.pipeline == nil || filter.pipeline == clockPipeline) && (filter.kinds?.contains(.data) ?? true)
        }
    }

    /// The pipeline `item` belongs to; clock ticks to `clock`.
    static func pipeline(of item: Item) -> String {
        switch item {
        case .pipeline(let event): event.pipeline
        case .shared(_, let pipeline, _): pipeline
        case .clockTick: clockPipeline
        }
    }

    static func json(_ event: PipelineEvent) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(event)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
