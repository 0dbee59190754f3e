// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTP
import StreamServiceConcurrency
import Streams
import Synchronization

/// Where pipelines publish their events, and the process's one numbered event log behind
/// `/events` (`log`): one numbering, one replay buffer, each event's JSON written once with its id.
///
/// Alone, the log numbers the events itself, on the publishing thread. Shared through Redis
/// (`share(through:)`), an event goes to the shared stream instead and enters the log when the
/// stream hands it back, under the id Redis gave it (`log.publish(_:id:)`); the log's rules for
/// given ids — a repeat is ignored, a jump or a `restart` tells live clients `reset`, a client
/// ahead waits `catchUpWait` — are then the failover rules, in one place.
///
/// An event nobody watches costs one turn of the log's lock (`publishIfUnwatched`); a traced
/// stage's is filed as its parts (`EventLogItem.traced`) and encoded only if a resume reads it.
public final class PipelineEventHub: Sendable {
    /// What a reader of the log gets: either an event or, once at the start, a note that
    /// events after its id have already left the buffer.
    public enum Delivery: Sendable, Equatable {
        case event(PipelineEvent)
        case reset(oldestAvailable: Int)
    }

    /// The event log: `/events` subscribes here; see `SSEBroadcaster` for its rules.
    public let log: SSEBroadcaster<EventLogItem>
    /// True while events go to a shared feed; read on every publish, hence an atomic beside the lock.
    private let sharing = Atomic<Bool>(false)
    private let share = Locked<(@Sendable (PipelineEvent) -> Void)?>(nil)

    /// - Parameters:
    ///   - replayCapacity: events kept for `Last-Event-ID` resume (`--events-history`).
    ///   - catchUpWait: see `SSEBroadcaster.catchUpWait`; set by a shared feed.
    public init(replayCapacity: Int = 1000, catchUpWait: Duration? = nil) {
        log = SSEBroadcaster(capacity: replayCapacity, catchUpWait: catchUpWait) { item, id in item.message(id: id) }
    }

    /// Shared by the whole service.
    public static let shared = PipelineEventHub()

    public var replayCapacity: Int { log.capacity }

    /// The id of the last event in the log (0 before the first).
    public var lastEventId: Int { log.lastID }

    /// Files `event` in the log under the next id and returns it numbered; shared, hands it to the
    /// shared feed and returns it unnumbered (the log gets it back from there).
    @discardableResult
    public func publish(_ event: PipelineEvent) -> PipelineEvent {
        if let forward = sharedFeed() {
            forward(event)
            return event
        }
        var numbered = event
        numbered.id = log.publish(.pipeline(event)) ?? 0
        return numbered
    }

    /// A traced stage's event (see `PipelineTrace`): while nobody watches, filed as its parts.
    func publish(_ kind: PipelineEvent.Kind, of run: PipelineRun, stage: String, detail: String?) {
        let item = EventLogItem.traced(run, kind, stage: stage, at: Date(), detail: detail)
        if let forward = sharedFeed() {
            if let event = item.event(id: 0) { forward(event) }
            return
        }
        if log.publishIfUnwatched(item) == nil { log.publish(item) }
    }

    private func sharedFeed() -> (@Sendable (PipelineEvent) -> Void)? {
        guard sharing.load(ordering: .acquiring) else { return nil }
        return share.withLock { $0 }
    }

    /// From now on events go to `forward` (a shared feed's publish) instead of the log, until the
    /// returned disposable is disposed.
    public func share(through forward: @escaping @Sendable (PipelineEvent) -> Void) -> Disposable {
        share.withLock { $0 = forward }
        sharing.store(true, ordering: .releasing)
        return Disposable { [self] in
            sharing.store(false, ordering: .releasing)
            share.withLock { $0 = nil }
        }
    }

    /// The logged pipeline events with ids above `lastSeen` matching `filter`, oldest first,
    /// preceded by `.reset` when some after `lastSeen` have already left the buffer: what a
    /// client resuming after `lastSeen` would be replayed, for a reader that looks now and then.
    public func recorded(after lastSeen: Int, matching filter: PipelineEventFilter = PipelineEventFilter()) -> [Delivery] {
        let (oldest, items) = log.recorded(after: lastSeen)
        let events = items.compactMap { $0.item.event(id: $0.id) }.filter(filter.admits).map(Delivery.event)
        return (oldest.map { [.reset(oldestAvailable: $0)] } ?? []) + events
    }

    /// Clients subscribed to the log.
    public var subscriberCount: Int { log.subscriberCount }
}
