// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StreamServiceConcurrency
import Streams
import NetCore
import Synchronization

/// The in-process feed of pipeline events behind `/events`: numbers every event, keeps
/// the last `replayCapacity` of them, and fans them out to live subscribers.
///
/// An event nobody watches is numbered by one atomic increment and filed in the publishing
/// thread's stripe (`ThreadStripes`) under that stripe's lock, which no other loop takes: a
/// `/users` request publishes about 100 events from the 4 server loops, and one lock for all of
/// them was contended about twice a request (futex calls, `perf`), with a second lock to keep
/// deliveries in order on top. While someone is subscribed, publishing goes through
/// `publishing` instead, so every subscriber sees ids in order.
public final class PipelineEventHub: Sendable {
    /// What a subscriber receives: either an event or, once at the start, a note that
    /// its resume id is older than the replay buffer and some events are gone.
    public enum Delivery: Sendable, Equatable {
        case event(PipelineEvent)
        case reset(oldestAvailable: Int)
    }

    private struct Subscribers {
        var byKey: [Int: (PipelineEventFilter, Watcher<Delivery>)] = [:] {
            didSet { list = Array(byKey.values) }
        }
        /// `byKey`'s values, rebuilt when they change: each publish takes this array (a
        /// retain) instead of filtering the dictionary into new arrays (two allocations an
        /// event, about 100 events a `/users` request).
        private(set) var list: [(PipelineEventFilter, Watcher<Delivery>)] = []
        var nextKey = 0
    }

    public let replayCapacity: Int
    /// The replay buffer, split by publishing thread: each ring keeps up to `replayCapacity`
    /// events, and when one is full its oldest is at least that many ids older than the newest
    /// anywhere, so out of the window. The price is memory: a stripe that stops publishing keeps
    /// its last events until it publishes again.
    private let stripes: ThreadStripes<EventRing>
    /// The last id given out; ids come from here on both paths, so they never repeat.
    private let lastId = Atomic<Int>(0)
    /// True while anyone is subscribed. Set under every stripe's lock (see `events`), read
    /// under the publishing thread's, so a publish either was filed before a subscriber joined
    /// (and is in its replay) or sees the subscriber and delivers to it.
    private let watched = Atomic<Bool>(false)
    private let subscribers = Locked(Subscribers())
    /// Serializes watched publishing and joining, so every subscriber sees ids in order and a
    /// resume misses nothing; delivery happens outside `subscribers`, so a subscriber may
    /// unsubscribe (a client disconnecting) from within its own delivery.
    private let publishing = Locked(false)

    public init(replayCapacity: Int = 1000) {
        self.replayCapacity = max(1, replayCapacity)
        let capacity = self.replayCapacity
        stripes = ThreadStripes { EventRing(capacity: capacity) }
    }

    /// Shared by the whole service.
    public static let shared = PipelineEventHub()

    public var lastEventId: Int { lastId.load(ordering: .acquiring) }

    /// Numbers and records the event, then hands it to matching subscribers.
    @discardableResult
    public func publish(_ event: PipelineEvent) -> PipelineEvent {
        let stripe = stripes.current
        let unwatched = stripe.withLock { ring -> PipelineEvent? in
            guard !watched.load(ordering: .relaxed) else { return nil }
            var numbered = event
            numbered.id = nextId()
            ring.append(EventRecord(id: numbered.id, body: .event(numbered)))
            return numbered
        }
        return unwatched ?? publishWatched(event, on: stripe)
    }

    /// A traced stage's event (see `PipelineTrace`): while nobody watches, filed as its parts
    /// (see `EventRecord`), else published as a `PipelineEvent`.
    func publish(_ kind: PipelineEvent.Kind, of run: PipelineRun, stage: String, detail: String?) {
        let date = Date()
        let stripe = stripes.current
        let filed = stripe.withLock { ring -> Bool in
            guard !watched.load(ordering: .relaxed) else { return false }
            ring.append(EventRecord(id: nextId(), body: .traced(run, kind, stage: stage, at: date, detail: detail)))
            return true
        }
        guard !filed else { return }
        publishWatched(
            PipelineEvent(
                kind: kind, pipeline: run.pipeline, requestId: run.requestId, stage: stage, timestamp: date, detail: detail, traceId: run.traceId),
            on: stripe)
    }

    /// Numbers, records and delivers `event` in order with every other watched publish.
    @discardableResult
    private func publishWatched(_ event: PipelineEvent, on stripe: Locked<EventRing>) -> PipelineEvent {
        publishing.withLock { _ in
            var numbered = event
            stripe.withLock { ring in
                numbered.id = nextId()
                ring.append(EventRecord(id: numbered.id, body: .event(numbered)))
            }
            let targets = subscribers.withLock { $0.list }
            for (filter, watcher) in targets where filter.admits(numbered) { watcher.data(.event(numbered)) }
            return numbered
        }
    }

    private func nextId() -> Int {
        lastId.add(1, ordering: .acquiringAndReleasing).newValue
    }

    /// The buffered events with ids above `lastSeen`, oldest first, preceded by `.reset` when
    /// some of those have already left the buffer: what a subscriber resuming after `lastSeen`
    /// would be replayed, for a reader that catches up now and then instead of subscribing.
    public func recorded(after lastSeen: Int, matching filter: PipelineEventFilter = PipelineEventFilter()) -> [Delivery] {
        publishing.withLock { _ in stripes.withAll(collecting: { $0.events(after: lastSeen) }) { replay($0, after: lastSeen, matching: filter) } }
    }

    /// Live events matching `filter`. With `after` (a `Last-Event-ID`), first replays the
    /// buffered events with larger ids, exactly once each, then continues live; if events
    /// after that id have already left the buffer, starts with `.reset`.
    public func events(matching filter: PipelineEventFilter = PipelineEventFilter(), after lastSeen: Int? = nil) -> DataStream<Delivery> {
        DataStream { watcher in
            let key: Int = self.publishing.withLock { _ in
                // Every stripe held: no unwatched publish is between taking its id and filing it.
                let (missed, key) = self.stripes.withAll(collecting: { $0.events(after: lastSeen ?? .max) }) { buffered -> ([Delivery], Int) in
                    let missed = lastSeen.map { self.replay(buffered, after: $0, matching: filter) } ?? []
                    let key = self.subscribers.withLock { subscribers in
                        defer { subscribers.nextKey += 1 }
                        subscribers.byKey[subscribers.nextKey] = (filter, watcher)
                        self.watched.store(true, ordering: .relaxed)
                        return subscribers.nextKey
                    }
                    return (missed, key)
                }
                for delivery in missed { watcher.data(delivery) }
                return key
            }
            return Disposable {
                self.subscribers.withLock { subscribers in
                    subscribers.byKey.removeValue(forKey: key)
                    // Under this lock, as every join's store: the last to run sees who is left.
                    if subscribers.byKey.isEmpty { self.watched.store(false, ordering: .relaxed) }
                }
            }
        }
    }

    public var subscriberCount: Int { subscribers.withLock { $0.byKey.count } }

    /// What `events(after:)` replays, from the `buffered` events above `lastSeen`; call with
    /// every stripe held.
    private func replay(_ buffered: [PipelineEvent], after lastSeen: Int, matching filter: PipelineEventFilter) -> [Delivery] {
        let oldest = max(1, lastId.load(ordering: .acquiring) - replayCapacity + 1)
        var missed: [Delivery] = []
        if lastSeen < oldest - 1 { missed.append(.reset(oldestAvailable: oldest)) }
        return missed + buffered.filter { $0.id >= oldest && filter.admits($0) }.sorted { $0.id < $1.id }.map(Delivery.event)
    }
}
