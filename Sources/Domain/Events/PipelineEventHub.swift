import StreamServiceConcurrency
import Streams
import NetCore
import Synchronization

/// The in-process feed of pipeline events behind `/events`: numbers every event, keeps
/// the last `replayCapacity` of them, and fans them out to live subscribers.
public final class PipelineEventHub: Sendable {
    /// What a subscriber receives: either an event or, once at the start, a note that
    /// its resume id is older than the replay buffer and some events are gone.
    public enum Delivery: Sendable, Equatable {
        case event(PipelineEvent)
        case reset(oldestAvailable: Int)
    }

    private struct State {
        var nextId = 1
        var buffer: [PipelineEvent] = []
        var bufferStart = 0
        var subscribers: [Int: (PipelineEventFilter, Watcher<Delivery>)] = [:] {
            didSet { subscriberList = Array(subscribers.values) }
        }
        /// `subscribers`' values, rebuilt when they change: each publish takes this array (a
        /// retain) instead of filtering the dictionary into new arrays (two allocations an
        /// event, about 100 events a `/users` request).
        private(set) var subscriberList: [(PipelineEventFilter, Watcher<Delivery>)] = []
        var nextSubscriber = 0

        var replay: [PipelineEvent] {
            Array(buffer[bufferStart...] + buffer[..<bufferStart])
        }
    }

    public let replayCapacity: Int
    private let state = Locked(State())
    /// Serializes publishing and joining, so every subscriber sees ids in order and a
    /// resume misses nothing; delivery happens outside `state`, so a subscriber may
    /// unsubscribe (a client disconnecting) from within its own delivery.
    private let publishing = Locked(false)

    public init(replayCapacity: Int = 1000) {
        self.replayCapacity = max(1, replayCapacity)
    }

    /// Shared by the whole service.
    public static let shared = PipelineEventHub()

    public var lastEventId: Int { state.withLock { $0.nextId - 1 } }

    /// Numbers and records the event, then hands it to matching subscribers.
    @discardableResult
    public func publish(_ event: PipelineEvent) -> PipelineEvent {
        publishing.withLock { _ in
            let (numbered, targets) = state.withLock { state in
                var numbered = event
                numbered.id = state.nextId
                state.nextId += 1
                if state.buffer.count < replayCapacity {
                    state.buffer.append(numbered)
                } else {
                    state.buffer[state.bufferStart] = numbered
                    state.bufferStart = (state.bufferStart + 1) % replayCapacity
                }
                return (numbered, state.subscriberList)
            }
            for (filter, watcher) in targets where filter.admits(numbered) { watcher.data(.event(numbered)) }
            return numbered
        }
    }

    /// Live events matching `filter`. With `after` (a `Last-Event-ID`), first replays the
    /// buffered events with larger ids, exactly once each, then continues live; if events
    /// after that id have already left the buffer, starts with `.reset`.
    public func events(matching filter: PipelineEventFilter = PipelineEventFilter(), after lastSeen: Int? = nil) -> DataStream<Delivery> {
        DataStream { watcher in
            let key: Int = self.publishing.withLock { _ in
                let (missed, key) = self.state.withLock { state -> ([Delivery], Int) in
                    var missed: [Delivery] = []
                    if let lastSeen {
                        let replay = state.replay
                        let oldest = replay.first?.id ?? state.nextId
                        if lastSeen + 1 < oldest { missed.append(.reset(oldestAvailable: oldest)) }
                        missed += replay.filter { $0.id > lastSeen && filter.admits($0) }.map(Delivery.event)
                    }
                    let key = state.nextSubscriber
                    state.nextSubscriber += 1
                    state.subscribers[key] = (filter, watcher)
                    return (missed, key)
                }
                for delivery in missed { watcher.data(delivery) }
                return key
            }
            return Disposable {
                _ = self.state.withLock { $0.subscribers.removeValue(forKey: key) }
            }
        }
    }

    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }
}
