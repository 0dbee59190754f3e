import NetCore
import Streams

/// A hot SSE feed shared by many clients: each published item is numbered
/// (1, 2, 3, … as its SSE `id`), encoded once, and the same bytes go to every
/// subscriber whose filter admits it; the last `capacity` items are kept for
/// `Last-Event-ID` resume.
///
/// A subscriber resuming after id N first gets the buffered items with larger
/// ids (filtered), then live ones, each exactly once and in order. If items
/// after N have already left the buffer, it first gets `event: reset` with the
/// oldest id still available, so the client knows it missed some; so does a
/// client whose id is newer than anything published (it saw a previous run).
public final class SSEBroadcaster<Item: Sendable>: Sendable {
    private struct Entry: Sendable {
        let id: Int
        let item: Item
        let bytes: [UInt8]
    }

    private struct Subscriber: Sendable {
        let admits: @Sendable (Item) -> Bool
        let watcher: Watcher<[UInt8]>
    }

    private struct State {
        var ring: [Entry] = []
        var ringStart = 0
        var lastID = 0
        var subscribers: [Int: Subscriber] = [:]
        var nextSubscriber = 0
        var ended = false

        /// Buffered entries, oldest first.
        var replay: [Entry] { Array(ring[ringStart...]) + Array(ring[..<ringStart]) }
        var oldestID: Int? { ring.isEmpty ? nil : ring[ringStart].id }
    }

    public let capacity: Int
    private let encode: @Sendable (Item) -> ServerSentEvent
    private let state = PThreadMutex(State())
    /// Publishing is serialized, so every subscriber sees items in id order even
    /// though delivery happens outside `state`'s lock.
    /// The value is unused; not `Void`, whose empty storage would share the mutex
    /// pointer's address, which ThreadSanitizer misreads as a race.
    private let publishing = PThreadMutex(false)

    /// - Parameter encode: the message for an item; its `id` field is replaced by the item's number.
    public init(capacity: Int, encode: @escaping @Sendable (Item) -> ServerSentEvent) {
        self.capacity = max(1, capacity)
        self.encode = encode
    }

    /// The id of the last published item (0 before the first).
    public var lastID: Int { state.withLock { $0.lastID } }

    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// Numbers and encodes `item` once, records it and hands its bytes to every admitting subscriber.
    public func publish(_ item: Item) {
        let message = encode(item)
        publishing.withLock { _ in
            let delivery = state.withLock { state -> (bytes: [UInt8], watchers: [Watcher<[UInt8]>])? in
                guard !state.ended else { return nil }
                let id = state.lastID + 1
                var numbered = message
                numbered.id = String(id)
                let entry = Entry(id: id, item: item, bytes: numbered.encoded)
                if state.ring.count < capacity {
                    state.ring.append(entry)
                } else {
                    state.ring[state.ringStart] = entry
                    state.ringStart = (state.ringStart + 1) % capacity
                }
                state.lastID = id
                return (entry.bytes, state.subscribers.values.compactMap { $0.admits(item) ? $0.watcher : nil })
            }
            guard let delivery else { return }
            for watcher in delivery.watchers { watcher.data(delivery.bytes) }
        }
    }

    /// Ends every subscriber's feed; later subscribers end at once.
    public func end() {
        publishing.withLock { _ in
            let watchers = state.withLock { state -> [Watcher<[UInt8]>] in
                state.ended = true
                defer { state.subscribers = [:] }
                return state.subscribers.values.map(\.watcher)
            }
            for watcher in watchers { watcher.end() }
        }
    }

    /// The feed as encoded messages, resuming after `lastSeen` when given.
    public func subscribe(after lastSeen: Int? = nil, where admits: @escaping @Sendable (Item) -> Bool = { _ in true }) -> DataStream<[UInt8]> {
        DataStream { watcher in
            // Holding `publishing` makes replay-then-join atomic with respect to
            // publishes: nothing is missed or delivered twice in between.
            let key: Int? = self.publishing.withLock { _ in
                let (replay, key) = self.state.withLock { state -> ([[UInt8]], Int?) in
                    guard !state.ended else { return ([], nil) }
                    var replay: [[UInt8]] = []
                    if let lastSeen {
                        let oldest = state.oldestID ?? state.lastID + 1
                        // Too old for the buffer, or from before a restart (ids start again at 1).
                        if lastSeen + 1 < oldest || lastSeen > state.lastID {
                            replay.append(Self.reset(oldestAvailable: oldest))
                        }
                        replay += state.replay.filter { $0.id > lastSeen && admits($0.item) }.map(\.bytes)
                    }
                    let key = state.nextSubscriber
                    state.nextSubscriber += 1
                    state.subscribers[key] = Subscriber(admits: admits, watcher: watcher)
                    return (replay, key)
                }
                for bytes in replay { watcher.data(bytes) }
                return key
            }
            guard let key else {
                watcher.end()
                return Disposable()
            }
            return Disposable {
                _ = self.state.withLock { $0.subscribers.removeValue(forKey: key) }
            }
        }
    }

    /// The message telling a resuming client that events it missed are gone.
    static func reset(oldestAvailable: Int) -> [UInt8] {
        ServerSentEvent(event: "reset", data: "{\"oldestAvailableId\":\(oldestAvailable)}").encoded
    }
}
