import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTP
import Streams

/// `/events`' source: the Domain hub's pipeline events, plus optional clock
/// ticks, each encoded once into an SSE message and shared by every client.
///
/// - a pipeline event: `event: <kind>` (subscribe, data, …), `data: <PipelineEvent JSON>`;
/// - a clock tick (with `--events-clock`): `event: tick`, `data: tick K`, the
///   pseudo-pipeline `clock` — a steady broadcast for load tests and demos.
///
/// SSE ids number the feed's messages (1, 2, 3, …) for `Last-Event-ID` resume.
public final class PipelineEventFeed: Sendable {
    public enum Item: Sendable {
        case pipeline(PipelineEvent)
        case clockTick(Int)
    }

    /// The pipeline name clock ticks are filed under.
    public static let clockPipeline = "clock"

    public let broadcaster: SSEBroadcaster<Item>
    private let hub: PipelineEventHub

    public init(hub: PipelineEventHub) {
        self.hub = hub
        broadcaster = SSEBroadcaster(capacity: hub.replayCapacity) { item in
            switch item {
            case .pipeline(let event): ServerSentEvent(event: event.kind.rawValue, data: Self.json(event))
            case .clockTick(let index): ServerSentEvent(event: "tick", data: "tick \(index)")
            }
        }
    }

    /// Starts forwarding the hub's events and, when `clock` is given, a tick every `clock`; dispose to stop.
    ///
    /// Both are published from `scheduler` (one serial queue): the hub delivers under
    /// its lock on whichever thread ran the pipeline, often an event loop, and fanning
    /// an event out to thousands of clients there would stall that loop's requests.
    public func start(clock: Duration?, scheduler: any Scheduler = QueueScheduler(label: "events.feed")) -> Disposable {
        let broadcaster = self.broadcaster
        let events = hub.events().observe(on: scheduler).watch(data: { delivery in
            if case .event(let event) = delivery { broadcaster.publish(.pipeline(event)) }
        })
        guard let clock, clock > .zero else { return events }
        let ticks = DataStream.interval(clock, scheduler: scheduler).watch(data: { index in broadcaster.publish(.clockTick(index)) })
        return Disposable {
            events.dispose()
            ticks.dispose()
        }
    }

    /// Whether a subscriber with `filter` wants `item`; clock ticks count as `data` events of pipeline `clock`.
    static func admits(_ item: Item, _ filter: PipelineEventFilter) -> Bool {
        switch item {
        case .pipeline(let event):
            return filter.admits(event)
        case .clockTick:
            return (filter.pipeline == nil || filter.pipeline == clockPipeline) && (filter.kinds?.contains(.data) ?? true)
        }
    }

    static func json(_ event: PipelineEvent) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(event)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
