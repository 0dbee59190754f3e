import ConcurrencyHelpers
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
/// client whose id is newer than anything published (it saw a previous run),
/// which then gets everything still buffered.
///
/// A subscriber that names its connection's event loop gets its items on that
/// loop: each item costs one queued job per loop, which writes to all of that
/// loop's subscribers in subscription order, not one job per subscriber
/// (10,000 for a 10,000-client broadcast).
public final class SSEBroadcaster<Item: Sendable>: Sendable {
    private struct Entry: Sendable {
        let id: Int
        let item: Item
        /// nil while nobody has needed it: published with no subscriber, encoded when a resume asks.
        let bytes: [UInt8]?
    }

    private struct Subscriber: Sendable {
        let admits: @Sendable (Item) -> Bool
        let watcher: Watcher<[UInt8]>
        let loop: EventLoop?
    }

    /// The subscribers of one loop (or, with no loop, of the publishing thread) in subscription order.
    private struct DeliveryGroup: Sendable {
        let loop: EventLoop?
        var subscribers: [Subscriber]
    }

    private struct State {
        var ring: [Entry] = []
        var ringStart = 0
        var lastID = 0
        var subscribers: [Int: Subscriber] = [:]
        var nextSubscriber = 0
        var ended = false
        /// `subscribers` grouped for delivery; rebuilt after the set changes.
        var groups: [DeliveryGroup]?

        mutating func deliveryGroups() -> [DeliveryGroup] {
            if let groups { return groups }
            var byLoop: [ObjectIdentifier: Int] = [:]
            var built = [DeliveryGroup(loop: nil, subscribers: [])]
            for key in subscribers.keys.sorted() {
                let subscriber = subscribers[key]!
                guard let loop = subscriber.loop else {
                    built[0].subscribers.append(subscriber)
                    continue
                }
                if let index = byLoop[ObjectIdentifier(loop)] {
                    built[index].subscribers.append(subscriber)
                } else {
                    byLoop[ObjectIdentifier(loop)] = built.count
                    built.append(DeliveryGroup(loop: loop, subscribers: [subscriber]))
                }
            }
            groups = built
            return built
        }

        /// Buffered entries, oldest first.
        var replay: [Entry] { Array(ring[ringStart...]) + Array(ring[..<ringStart]) }
        var oldestID: Int? { ring.isEmpty ? nil : ring[ringStart].id }
    }

    public let capacity: Int
    private let encode: @Sendable (Item) -> ServerSentEvent
    private let state = Locked(State())
    /// Publishing is serialized, so every subscriber sees items in id order even
    /// though delivery happens outside `state`'s lock.
    /// The value is unused; not `Void`, whose empty storage would share the mutex
    /// pointer's address, which ThreadSanitizer misreads as a race.
    private let publishing = Locked(false)

    /// - Parameter encode: the message for an item; its `id` field is replaced by the item's number.
    public init(capacity: Int, encode: @escaping @Sendable (Item) -> ServerSentEvent) {
        self.capacity = max(1, capacity)
        self.encode = encode
    }

    /// The id of the last published item (0 before the first).
    public var lastID: Int { state.withLock { $0.lastID } }

    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// Numbers and encodes `item` once, records it and hands its bytes to every admitting subscriber.
    /// With no subscriber the encoding waits until a resume needs it: encoding (JSON, then SSE
    /// lines) was a third of `/users`' instructions (callgrind), for a feed nobody watched.
    public func publish(_ item: Item) {
        publishing.withLock { _ in
            // Subscribers join under `publishing` too, so none can arrive before this item is delivered.
            let watched = state.withLock { !$0.subscribers.isEmpty }
            let message = watched ? encode(item) : nil
            let delivery = state.withLock { state -> (bytes: [UInt8]?, groups: [DeliveryGroup])? in
                guard !state.ended else { return nil }
                let id = state.lastID + 1
                let entry = Entry(id: id, item: item, bytes: message.map { Self.numbered($0, id: id) })
                if state.ring.count < capacity {
                    state.ring.append(entry)
                } else {
                    state.ring[state.ringStart] = entry
                    state.ringStart = (state.ringStart + 1) % capacity
                }
                state.lastID = id
                return (entry.bytes, state.deliveryGroups())
            }
            guard let delivery, let bytes = delivery.bytes else { return }
            Self.deliver(.data(bytes), admitting: { $0.admits(item) }, to: delivery.groups)
        }
    }

    private static func numbered(_ message: ServerSentEvent, id: Int) -> [UInt8] {
        var numbered = message
        numbered.id = String(id)
        return numbered.encoded
    }

    /// Delivers `event` to every group at once: on the publishing thread for the group without
    /// a loop, else in one turn of the group's loop. A publish may run while the previous one's
    /// turns are still queued; each loop's queue is first-in first-out, so every subscriber
    /// still gets the items in order.
    private static func deliver(_ event: Event<[UInt8]>, admitting admits: @escaping @Sendable (Subscriber) -> Bool, to groups: [DeliveryGroup]) {
        for group in groups {
            let deliverGroup: @Sendable () -> Void = {
                for subscriber in group.subscribers where admits(subscriber) { subscriber.watcher.event(event) }
            }
            if let loop = group.loop { loop.execute(deliverGroup) } else { deliverGroup() }
        }
    }

    /// Ends every subscriber's feed; later subscribers end at once.
    public func end() {
        publishing.withLock { _ in
            let groups = state.withLock { state -> [DeliveryGroup] in
                state.ended = true
                defer {
                    state.subscribers = [:]
                    state.groups = nil
                }
                return state.deliveryGroups()
            }
            Self.deliver(.end, admitting: { _ in true }, to: groups)
        }
    }

    /// The feed as encoded messages, resuming after `lastSeen` when given. With `loop`, the
    /// subscriber must be subscribed on that loop, and live items are delivered there.
    public func subscribe(
        after lastSeen: Int? = nil,
        on loop: EventLoop? = nil,
        where admits: @escaping @Sendable (Item) -> Bool = { _ in true }
    ) -> DataStream<[UInt8]> {
        DataStream { watcher in
            // Holding `publishing` makes replay-then-join atomic with respect to
            // publishes: nothing is missed or delivered twice in between.
            let key: Int? = self.publishing.withLock { _ in
                let (reset, entries, key) = self.state.withLock { state -> ([UInt8]?, [Entry], Int?) in
                    guard !state.ended else { return (nil, [], nil) }
                    var reset: [UInt8]?
                    var entries: [Entry] = []
                    if let lastSeen {
                        let oldest = state.oldestID ?? state.lastID + 1
                        // Too old for the buffer, or from before a restart (ids start again at 1):
                        // reset, then everything still buffered.
                        var resumeAfter = lastSeen
                        if lastSeen + 1 < oldest || lastSeen > state.lastID {
                            reset = Self.reset(oldestAvailable: oldest)
                            resumeAfter = oldest - 1
                        }
                        entries = state.replay.filter { $0.id > resumeAfter && admits($0.item) }
                    }
                    let key = state.nextSubscriber
                    state.nextSubscriber += 1
                    state.subscribers[key] = Subscriber(admits: admits, watcher: watcher, loop: loop)
                    state.groups = nil
                    return (reset, entries, key)
                }
                if let reset { watcher.data(reset) }
                // Items published while nobody watched are encoded now, outside the state lock.
                for entry in entries { watcher.data(entry.bytes ?? Self.numbered(self.encode(entry.item), id: entry.id)) }
                return key
            }
            guard let key else {
                watcher.end()
                return Disposable()
            }
            return Disposable {
                self.state.withLock { state in
                    if state.subscribers.removeValue(forKey: key) != nil { state.groups = nil }
                }
            }
        }
    }

    /// The message telling a resuming client that events it missed are gone. Its `id:` is
    /// the one just before the oldest buffered item, so an EventSource drops its stale last
    /// id, and one that reconnects right after the reset resumes with that oldest item.
    static func reset(oldestAvailable: Int) -> [UInt8] {
        ServerSentEvent(id: String(oldestAvailable - 1), event: "reset", data: "{\"oldestAvailableId\":\(oldestAvailable)}").encoded
    }
}
