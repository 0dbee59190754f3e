import Domain
import HTTP
import StreamServiceConcurrency
import Streams

/// Carries the hub's pipeline events into the `/events` broadcaster, in order.
///
/// While no client is connected, an event is recorded on the thread that published it:
/// the broadcaster then only files the item for a later resume (its encoding waits), a few
/// hundred instructions, where a hop to the feed's queue cost a Dispatch wake-up (futex
/// calls) for most of the ~90 events of a `/users?limit=30` request. Once clients are
/// connected, events go through `scheduler` in batches, so fanning one out to thousands of
/// sockets never stalls the event loop that ran the pipeline.
///
/// `relay` must not run concurrently with itself: the hub calls its subscribers under its
/// publishing lock, one event at a time.
final class PipelineEventRelay: Sendable {
    private struct State {
        var pending: [PipelineEvent] = []
        /// A drain job is scheduled or running: later events queue behind it, never overtake it.
        var draining = false
        var cancelled = false
    }

    private let broadcaster: SSEBroadcaster<PipelineEventFeed.Item>
    private let scheduler: any Scheduler
    private let state = Locked(State())

    init(to broadcaster: SSEBroadcaster<PipelineEventFeed.Item>, on scheduler: any Scheduler) {
        self.broadcaster = broadcaster
        self.scheduler = scheduler
    }

    func relay(_ event: PipelineEvent) {
        let scheduleDrain = state.withLock { state -> Bool in
            guard !state.cancelled else { return false }
            // Nothing queued or in flight, so recording it here keeps the order. Asked under this
            // lock, in one turn of the broadcaster's: two locks an event where a count of its
            // subscribers and then a publish took four (about 100 events a `/users` request).
            if !state.draining, broadcaster.publishIfUnwatched(.pipeline(event)) { return false }
            state.pending.append(event)
            defer { state.draining = true }
            return !state.draining
        }
        if scheduleDrain { scheduler.schedule { [self] in drain() } }
    }

    /// Drops what is queued; events relayed after this are ignored.
    func cancel() {
        state.withLock { state in
            state.cancelled = true
            state.pending = []
        }
    }

    /// Publishes one batch, then reschedules for what arrived meanwhile, so a busy feed
    /// leaves room on the queue for the clock's ticks.
    private func drain() {
        let batch = state.withLock { state -> [PipelineEvent] in
            defer { state.pending = [] }
            return state.cancelled ? [] : state.pending
        }
        for event in batch { broadcaster.publish(.pipeline(event)) }
        let more = state.withLock { state -> Bool in
            state.draining = !state.cancelled && !state.pending.isEmpty
            return state.draining
        }
        if more { scheduler.schedule { [self] in drain() } }
    }
}
