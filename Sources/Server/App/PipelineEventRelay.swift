// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Domain
import HTTP
import StreamServiceConcurrency
import Streams
import Synchronization

/// Carries the hub's pipeline events into the `/events` broadcaster, in order, and only
/// while someone needs them there.
///
/// While no client is connected the relay is not subscribed to the hub: an event then costs the
/// hub's unwatched path alone (an atomic id and the publishing thread's stripe), where relaying
/// each at once took four locks (two contended across the server loops) and a second copy in the
/// broadcaster's ring, for each of a `/users` request's events (the figure: Benchmarks/README.md).
/// What the hub filed meanwhile is caught up, in id order, when it is needed: a client joining
/// (before its resume is read), a clock tick (so ticks keep their place among the events), or
/// `lastID`. Once clients are connected the relay subscribes to the hub and events go through
/// `scheduler` in batches, so fanning one out to thousands of sockets never stalls the event loop
/// that ran the pipeline; after the last client leaves it unsubscribes again.
///
/// The broadcaster's id of an event is the hub's plus `offset`: ticks (and events the hub had
/// before the feed started) shift it, so an event gets the number it would have had relayed at once.
final class PipelineEventRelay: Sendable {
    private struct State {
        var offset: Int
        /// The hub's id of the last event in the broadcaster.
        var relayed: Int
        /// The hub subscription, while clients are connected.
        var subscription: Disposable?
        var stopped = false
    }

    /// Events the hub delivered while subscribed, not yet in the broadcaster.
    private struct Inbox {
        var events: [PipelineEvent] = []
        var scheduled = false
    }

    private let hub: PipelineEventHub
    private let broadcaster: SSEBroadcaster<PipelineEventFeed.Item>
    private let scheduler: any Scheduler
    /// Every publish to the broadcaster happens under this lock, so ids reach it in order.
    private let state: Locked<State>
    private let inbox = Locked(Inbox())
    /// Clients connected; an atomic, as a client may leave from within a delivery made under `state`.
    private let clients = Atomic<Int>(0)

    init(hub: PipelineEventHub, to broadcaster: SSEBroadcaster<PipelineEventFeed.Item>, on scheduler: any Scheduler) {
        self.hub = hub
        self.broadcaster = broadcaster
        self.scheduler = scheduler
        let start = hub.lastEventId
        state = Locked(State(offset: broadcaster.lastID - start, relayed: start))
    }

    /// A client is about to subscribe to the broadcaster: everything so far goes in first, then
    /// events come live until it leaves.
    func join() {
        state.withLock { state in
            clients.add(1, ordering: .relaxed)
            guard !state.stopped, state.subscription == nil else { return }
            // The hub replays what it filed since the last catch-up, then continues live.
            state.subscription = hub.events(after: state.relayed).watch(data: { [self] delivery in receive(delivery) })
            flush(&state)
        }
    }

    /// A client left; the last one to leave unsubscribes the relay (on the scheduler, after what
    /// is queued, unless another client has joined by then).
    func leave() {
        guard clients.subtract(1, ordering: .relaxed).newValue == 0 else { return }
        scheduler.schedule { [self] in
            state.withLock { state in
                guard clients.load(ordering: .relaxed) == 0 else { return }
                detach(&state)
            }
        }
    }

    /// Puts every event the hub has filed so far into the broadcaster.
    func catchUp() {
        state.withLock { catchUp(&$0) }
    }

    /// Publishes clock tick `index` after every event filed before it.
    func tick(_ index: Int) {
        state.withLock { state in
            guard !state.stopped else { return }
            catchUp(&state)
            broadcaster.publish(.clockTick(index))
            state.offset += 1
        }
    }

    /// Stops relaying; events published after this stay in the hub.
    func stop() {
        state.withLock { state in
            detach(&state)
            state.stopped = true
        }
    }

    private func catchUp(_ state: inout State) {
        guard !state.stopped else { return }
        if state.subscription != nil { return flush(&state) }
        for case .event(let event) in hub.recorded(after: state.relayed) { relay(event, &state) }
    }

    /// Called by the hub, under its publishing lock, one event at a time.
    private func receive(_ delivery: PipelineEventHub.Delivery) {
        guard case .event(let event) = delivery else { return }
        let schedule = inbox.withLock { inbox -> Bool in
            inbox.events.append(event)
            defer { inbox.scheduled = true }
            return !inbox.scheduled
        }
        if schedule { scheduler.schedule { [self] in state.withLock { flush(&$0) } } }
    }

    /// Publishes what the hub delivered so far.
    private func flush(_ state: inout State) {
        let events = inbox.withLock { inbox -> [PipelineEvent] in
            defer { inbox = Inbox() }
            return inbox.events
        }
        guard !state.stopped else { return }
        for event in events { relay(event, &state) }
    }

    /// Unsubscribes from the hub, keeping every event it delivered before.
    private func detach(_ state: inout State) {
        guard let subscription = state.subscription else { return }
        subscription.dispose()
        state.subscription = nil
        // A publish that took the subscriber list before the dispose may still be delivering:
        // the hub's publishing lock, which this takes, waits for it.
        _ = hub.recorded(after: .max)
        flush(&state)
    }

    private func relay(_ event: PipelineEvent, _ state: inout State) {
        // Delivered both live and in a catch-up (a join racing a publish): once is enough.
        guard event.id > state.relayed else { return }
        broadcaster.publish(.pipeline(event), id: event.id + state.offset)
        state.relayed = event.id
    }
}
