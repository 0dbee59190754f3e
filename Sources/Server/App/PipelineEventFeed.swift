import Domain
import Foundation
import Streams

/// `/events`' source: the Domain hub's pipeline events, each encoded once into an
/// SSE message (`id`, `event: <kind>`, `data: <JSON>`) and shared by every client.
public final class PipelineEventFeed: Sendable {
    public let broadcaster: SSEBroadcaster<PipelineEvent>
    private let hub: PipelineEventHub

    public init(hub: PipelineEventHub) {
        self.hub = hub
        broadcaster = SSEBroadcaster(capacity: hub.replayCapacity, identify: \.id) { event in
            ServerSentEvent(event: event.kind.rawValue, data: Self.json(event))
        }
    }

    /// Starts forwarding the hub's events; dispose the result to stop.
    public func start() -> Disposable {
        hub.events().watch(data: { [broadcaster] delivery in
            if case .event(let event) = delivery { broadcaster.publish(event) }
        })
    }

    static func json(_ event: PipelineEvent) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(event)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
