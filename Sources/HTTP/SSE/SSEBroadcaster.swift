// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Dispatch
import NetCore
import Streams

/// A hot SSE feed shared by many clients — the engine of the service's one
/// numbered event log (`PipelineEventHub.log`): each published item is numbered
/// (1, 2, 3, … as its SSE `id`), encoded once with that id, and the same bytes go to every
/// subscriber whose filter admits it; the last `capacity` items are kept for
/// `Last-Event-ID` resume.
///
/// A subscriber resuming after id N first gets the buffered items with larger
/// ids (filtered), then live ones, each exactly once and in order. If items
/// after N have already left the buffer, it first gets `event: reset` with the
/// oldest id still available, so the client knows it missed some; so does a
/// client whose id is newer than anything published (it saw a previous run),
/// which then gets everything still buffered — unless the feed has a
/// `catchUpWait`: then the client may be ahead of this process (another replica
/// numbered the item first) and waits that long for the feed to reach its id
/// before it is told to reset.
///
/// Items numbered elsewhere (a shared feed in Redis) arrive through
/// `publish(_:id:)`: a jump in ids tells live subscribers `reset`, as does
/// `restart(at:)` when the shared history itself was lost.
///
/// A subscriber that names its connection's event loop gets its items on that
/// loop: each item costs one queued job per loop, which writes to all of that
/// loop's subscribers in subscription order, not one job per subscriber
/// (10,000 for a 10,000-client broadcast). The job is one write batch
/// (`EventLoop.batchingWrites`): every connection gets the item with one
/// system call, however many of its HTTP/2 streams subscribe (100 streams of a
/// connection were 100 sends and 100 TCP segments without it).
public final class SSEBroadcaster<Item: Sendable>: Sendable {
    private struct Entry: Sendable {
        let id: Int
        let item: Item
        /// nil while nobody has needed it: published with no subscriber, encoded when a resume asks.
        let bytes: [UInt8]?
    }

    /// A class, not a struct: a delivery walks every subscriber of a loop, and copying a struct of
    /// four fields out of the array for each of them (a retain and a release per field) cost more
    /// than the rest of the walk. Immutable, so a delivery off the state lock reads it safely; a
    /// change of `after` replaces it (`caughtUp`).
    private final class Subscriber: Sendable {
        let admits: @Sendable (Item) -> Bool
        let watcher: Watcher<[UInt8]>
        let loop: EventLoop?
        /// Items up to this id were already seen (a client ahead of this process); 0 for most.
        let after: Int

        init(admits: @escaping @Sendable (Item) -> Bool, watcher: Watcher<[UInt8]>, loop: EventLoop?, after: Int) {
            self.admits = admits
            self.watcher = watcher
            self.loop = loop
            self.after = after
        }

        /// This subscriber waiting for no id any more (`after` 0).
        var caughtUp: Subscriber { after == 0 ? self : Subscriber(admits: admits, watcher: watcher, loop: loop, after: 0) }

        func wants(_ id: Int, _ item: Item) -> Bool { id > after && admits(item) }

        /// Delivers `bytes` to this subscriber alone, on its loop when it has one.
        func send(_ bytes: [UInt8]) {
            if let loop { loop.execute { [watcher] in watcher.data(bytes) } } else { watcher.data(bytes) }
        }
    }

    /// The subscribers of one loop (or, with no loop, of the publishing thread) in subscription order.
    private struct DeliveryGroup: Sendable {
        let loop: EventLoop?
        var subscribers: [Subscriber]
    }

    /// What `State.record` did with an item: its id, its bytes, and the reset to send before it.
    private struct Recorded {
        let id: Int
        let bytes: [UInt8]?
        let reset: [UInt8]?
    }

    private struct State {
        var ring: [Entry] = []
        var ringStart = 0
        var lastID = 0
        var subscribers: [Int: Subscriber] = [:]
        var nextSubscriber = 0
        var ended = false
        var catchUpWait: Duration?
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

        /// Numbers `item` (or takes the shared feed's `id`) and keeps it in the ring: nil for a
        /// repeated id; a jump in ids clears the ring and gives the `reset` to send first.
        /// `encoded` is the message made for the id the item was expected to get; with another
        /// id (an unwatched publish came first) `encode` makes it again; with neither, the bytes
        /// wait for a resume to need them.
        mutating func record(
            _ item: Item, id given: Int?, encoded: (id: Int, message: ServerSentEvent)? = nil,
            encode: (@Sendable (Item, Int) -> ServerSentEvent)? = nil, capacity: Int
        ) -> Recorded? {
            guard !ended else { return nil }
            // `lastID` stays below Int.max (a shared feed's id of Int.max is refused, as `restart`
            // clamps), so `lastID + 1` here and wherever the next id is named cannot trap.
            let id = given ?? lastID + 1
            guard id > lastID, id < .max else { return nil }
            var reset: [UInt8]?
            if id > lastID + 1, lastID > 0 || !ring.isEmpty {
                ring = []
                ringStart = 0
                reset = SSEBroadcaster.reset(oldestAvailable: id)
            }
            let message = encoded.flatMap { $0.id == id ? $0.message : nil } ?? encode.map { $0(item, id) }
            let bytes = message.map { SSEBroadcaster.numbered($0, id: id) }
            // The entry made in place: a local one copied into the ring cost a copy and a destroy
            // of the item (its enum's outlined witnesses) per publish (the figure: Benchmarks/README.md).
            if ring.count < capacity {
                ring.append(Entry(id: id, item: item, bytes: bytes))
            } else {
                ring[ringStart] = Entry(id: id, item: item, bytes: bytes)
                ringStart = (ringStart + 1) % capacity
            }
            lastID = id
            return Recorded(id: id, bytes: bytes, reset: reset)
        }

        /// Buffered entries, oldest first.
        var replay: [Entry] { Array(ring[ringStart...]) + Array(ring[..<ringStart]) }
        var oldestID: Int? { ring.isEmpty ? nil : ring[ringStart].id }
    }

    /// How many of the latest items are kept for subscribers that resume with `Last-Event-ID`.
    public let capacity: Int
    /// How long a subscriber whose id is ahead of the feed waits for it; nil = reset at once.
    /// Set when the feed becomes shared (the ids then come from elsewhere and may lag a client's).
    public var catchUpWait: Duration? {
        get { state.withLock { $0.catchUpWait } }
        set { state.withLock { $0.catchUpWait = newValue } }
    }
    private let encode: @Sendable (Item, Int) -> ServerSentEvent
    private let state = Locked(State())
    /// Publishing is serialized, so every subscriber sees items in id order even
    /// though delivery happens outside `state`'s lock.
    /// The value is unused; not `Void`, whose empty storage would share the mutex
    /// pointer's address, which ThreadSanitizer misreads as a race.
    private let publishing = Locked(false)

    /// A feed keeping the last `capacity` items for subscribers that resume.
    ///
    /// - Parameters:
    ///   - capacity: how many of the latest items are kept (at least 1).
    ///   - catchUpWait: how long a subscriber whose id is ahead of the feed waits for it before
    ///     it is told to reset; nil resets at once (a feed numbered by this process alone).
    ///   - encode: the message for an item; its `id` field is replaced by the item's number.
    public convenience init(capacity: Int, catchUpWait: Duration? = nil, encode: @escaping @Sendable (Item) -> ServerSentEvent) {
        self.init(capacity: capacity, catchUpWait: catchUpWait, encodeNumbered: { item, _ in encode(item) })
    }

    /// A feed as `init(capacity:catchUpWait:encode:)` makes, for items whose data carries their id.
    ///
    /// - Parameters:
    ///   - capacity: how many of the latest items are kept (at least 1).
    ///   - catchUpWait: as in `init(capacity:catchUpWait:encode:)`.
    ///   - encodeNumbered: the message for an item and its number, for items whose data
    ///     carries their id (written once, with it); the message's `id` field is set to the number.
    public init(capacity: Int, catchUpWait: Duration? = nil, encodeNumbered: @escaping @Sendable (Item, Int) -> ServerSentEvent) {
        self.capacity = max(1, capacity)
        self.encode = encodeNumbered
        state.withLock { $0.catchUpWait = catchUpWait }
    }

    /// The id of the last published item (0 before the first).
    public var lastID: Int { state.withLock { $0.lastID } }

    /// The subscribers watching now.
    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// Numbers and encodes `item` once, records it and hands its bytes to every admitting subscriber;
    /// returns its id (nil once the feed has ended).
    @discardableResult
    public func publish(_ item: Item) -> Int? {
        publish(item, id: nil)
    }

    /// Records `item` under an id given by a shared feed. An id at or below the last one is a
    /// repeat and ignored; one beyond the next means items were lost in between, so the buffer
    /// is cleared and live subscribers get `reset` first (never a silent gap).
    public func publish(_ item: Item, id: Int) {
        _ = publish(item, id: Optional(id))
    }

    /// Records `item` and returns its id when nobody is subscribed (0 when it was refused: the feed
    /// has ended, or a given id repeats one);
    /// nil, recording nothing, when someone is (then `publish` it). One turn of one lock: a busy
    /// feed comes here for every event, mostly with nobody watching.
    public func publishIfUnwatched(_ item: Item) -> Int? {
        recordUnwatched(item, id: nil)
    }

    /// With no subscriber the encoding waits until a resume needs it: encoding (JSON, then SSE
    /// lines) for every item is wasted on a feed nobody watches.
    /// Needs no turn of `publishing`: with nobody subscribed there is no delivery to keep in
    /// order, and a subscriber joining takes `state` too, so it either finds the item in the
    /// ring or is there before it (then this returns false).
    private func recordUnwatched(_ item: Item, id given: Int?) -> Int? {
        state.withLock { state -> Int? in
            guard state.subscribers.isEmpty else { return nil }
            return state.record(item, id: given, capacity: capacity)?.id ?? 0
        }
    }

    private func publish(_ item: Item, id given: Int?) -> Int? {
        if let id = recordUnwatched(item, id: given) { return id == 0 ? nil : id }
        return publishing.withLock { _ -> Int? in
            // Encoded outside `state` for the id it will most likely get (its data carries the id):
            // only an unwatched publish, after every subscriber left, can take that id first.
            let expected = given ?? state.withLock { $0.lastID } + 1
            let message = (id: expected, message: encode(item, expected))
            var groups: [DeliveryGroup] = []
            let recorded = state.withLock { state -> Recorded? in
                let recorded = state.record(item, id: given, encoded: message, encode: encode, capacity: capacity)
                if recorded != nil { groups = state.deliveryGroups() }
                return recorded
            }
            guard let recorded else { return nil }
            if let reset = recorded.reset { Self.deliver(.data(reset), admitting: { _ in true }, to: groups) }
            if let bytes = recorded.bytes {
                Self.deliver(.data(bytes), admitting: { $0.wants(recorded.id, item) }, to: groups)
            }
            return recorded.id
        }
    }

    /// The shared history was lost (Redis restarted empty): forgets the buffer, continues
    /// after `lastID`, and tells every live subscriber `reset`. Not `notifying`: only sets
    /// where a feed starts (its first look at the shared history), telling only the clients
    /// that wait for an id it skips past.
    public func restart(at lastID: Int, notifying: Bool = true) {
        let lastID = min(lastID, .max - 1)  // the next id must still be representable
        let reset = Self.reset(oldestAvailable: lastID + 1)
        publishing.withLock { _ in
            let told = state.withLock { state -> (groups: [DeliveryGroup], early: [Subscriber]) in
                state.ring = []
                state.ringStart = 0
                state.lastID = lastID
                state.groups = nil
                guard notifying else {
                    // Clients that came before the start and wait for an id it skips past have missed events.
                    let early = state.subscribers.filter { $0.value.after > 0 && $0.value.after < lastID }
                    for key in early.keys { state.subscribers[key] = state.subscribers[key]?.caughtUp }
                    return ([], Array(early.values))
                }
                for key in state.subscribers.keys { state.subscribers[key] = state.subscribers[key]?.caughtUp }
                return (state.deliveryGroups(), [])
            }
            for subscriber in told.early { subscriber.send(reset) }
            Self.deliver(.data(reset), admitting: { _ in true }, to: told.groups)
        }
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
            if let loop = group.loop { loop.execute { loop.batchingWrites(deliverGroup) } } else { deliverGroup() }
        }
    }

    /// The buffered items with ids above `lastSeen`, oldest first, and the oldest id still
    /// available when some after `lastSeen` have left the buffer (what a resume would be told
    /// with `reset`): for a reader that looks now and then instead of subscribing.
    public func recorded(after lastSeen: Int) -> (oldestAvailable: Int?, items: [(id: Int, item: Item)]) {
        state.withLock { state in
            let oldest = state.oldestID ?? state.lastID + 1
            let items = state.replay.filter { $0.id > lastSeen }.map { (id: $0.id, item: $0.item) }
            return (lastSeen < oldest - 1 ? oldest : nil, items)
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
            let (key, catchUpWait): (Int?, Duration?) = self.publishing.withLock { _ in
                let (replay, key, wait) = self.state.withLock { state -> ([[UInt8]], Int?, Duration?) in
                    guard !state.ended else { return ([], nil, nil) }
                    var replay: [[UInt8]] = []
                    var after = 0
                    if let lastSeen {
                        let oldest = state.oldestID ?? state.lastID + 1
                        // Too old for the buffer, or from before a restart (ids start again at 1):
                        // reset, then everything still buffered.
                        var resumeAfter = lastSeen
                        if lastSeen > state.lastID, state.catchUpWait != nil {
                            // Ahead of this process: wait for the feed to catch up (see catchUpExpired).
                            after = lastSeen
                        } else if lastSeen < oldest - 1 || lastSeen > state.lastID {
                            // `lastSeen` is the client's: compared, never added to (`Int.max` would trap).
                            replay.append(Self.reset(oldestAvailable: oldest))
                            resumeAfter = oldest - 1
                        }
                        replay += state.replay.filter { $0.id > resumeAfter && admits($0.item) }.map(self.encoded)
                    }
                    let key = state.nextSubscriber
                    state.nextSubscriber += 1
                    state.subscribers[key] = Subscriber(admits: admits, watcher: watcher, loop: loop, after: after)
                    state.groups = nil
                    return (replay, key, state.catchUpWait)
                }
                for bytes in replay { watcher.data(bytes) }
                return (key, wait)
            }
            guard let key else {
                watcher.end()
                return Disposable()
            }
            if let catchUpWait, let lastSeen, lastSeen > 0 {
                DispatchQueue.global().asyncAfter(deadline: .now() + catchUpWait.dispatchInterval) { self.catchUpExpired(key) }
            }
            return Disposable {
                self.state.withLock { state in
                    if state.subscribers.removeValue(forKey: key) != nil { state.groups = nil }
                }
            }
        }
    }

    /// A subscriber ahead of the feed waited `catchUpWait`: if the feed has still not reached
    /// its id, the id is not coming (it is from a lost history), so it gets `reset` and then
    /// everything still buffered, as a client from before a restart does at once.
    private func catchUpExpired(_ key: Int) {
        publishing.withLock { _ in
            let late = state.withLock { state -> (Subscriber, [[UInt8]])? in
                guard let subscriber = state.subscribers[key], subscriber.after > state.lastID else { return nil }
                state.subscribers[key] = subscriber.caughtUp
                state.groups = nil
                let buffered = state.replay.filter { subscriber.admits($0.item) }.map(self.encoded)
                return (subscriber, [Self.reset(oldestAvailable: state.oldestID ?? state.lastID + 1)] + buffered)
            }
            if let (subscriber, messages) = late { subscriber.send(messages.flatMap { $0 }) }
        }
    }

    fileprivate static func numbered(_ message: ServerSentEvent, id: Int) -> [UInt8] {
        var numbered = message
        numbered.id = String(id)
        return numbered.encoded
    }

    /// An entry's bytes, encoded now if it was published while nobody watched. Called under the
    /// state lock on the rare resume path; `encode` only formats the item and never calls back here.
    private func encoded(_ entry: Entry) -> [UInt8] {
        entry.bytes ?? Self.numbered(encode(entry.item, entry.id), id: entry.id)
    }

    /// The message telling a resuming client that events it missed are gone. Its `id:` is
    /// the one just before the oldest buffered item, so an EventSource drops its stale last
    /// id, and one that reconnects right after the reset resumes with that oldest item.
    static func reset(oldestAvailable: Int) -> [UInt8] {
        ServerSentEvent(id: String(oldestAvailable - 1), event: "reset", data: "{\"oldestAvailableId\":\(oldestAvailable)}").encoded
    }
}
