// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency

/// Hands a watcher its events on a scheduler, in order, one batch per scheduled
/// job: the engine of `observe(on:)`.
///
/// At most one delivery job is pending or running at a time, so even on a
/// concurrent queue the watcher gets one event at a time, in arrival order. A job
/// delivers what was queued when it started and schedules another for later
/// arrivals, so a busy source cannot monopolise a serial queue. A scheduler that
/// runs that next job at once (`ImmediateScheduler`) finds it handed back to the
/// running job, which loops instead of nesting: feedback cannot grow the stack.
final class ScheduledDelivery<Element: Sendable>: Sendable {
    private struct Queue {
        var events = RingBuffer<Event<Element>>()
        /// `.data` events in `events`, held to the limit's capacity.
        var waitingValues = 0
        /// The limit's `.fail` has queued its error: nothing more is accepted.
        var overflowed = false
        var jobPending = false
        var generation: UInt64 = 0
        var cancelled = false
        /// A running job is scheduling its successor.
        var schedulingNext = false
        /// That successor ran during the scheduling call and left the work to the running job.
        var nextHandedBack = false
    }

    private let downstream: Watcher<Element>
    private let scheduler: any Scheduler
    private let queue = Locked(Queue())
    private let job = SerialDisposable()

    private let limit: BufferLimit
    /// The subscriber's context (`ContextPropagation`), bound around each delivery: events
    /// enqueued by a thread without it (an I/O loop's) still reach the watcher in it.
    private let context = ContextPropagation.capture()

    init(to downstream: Watcher<Element>, on scheduler: any Scheduler, limit: BufferLimit) {
        self.downstream = downstream
        self.scheduler = scheduler
        self.limit = limit
    }

    func enqueue(_ event: Event<Element>) {
        let generation = queue.withLock { queue -> UInt64? in
            guard !queue.cancelled, !queue.overflowed else { return nil }
            if case .data = event {
                guard admit(&queue) else { return nil }
            }
            queue.events.append(event)
            return queue.jobPending ? nil : Self.claimJob(&queue)
        }
        if let generation { scheduleJob(generation) }
    }

    /// Makes room for one more value as the limit says; false if the value is not to be queued.
    private func admit(_ queue: inout Queue) -> Bool {
        guard queue.waitingValues >= limit.capacity else {
            queue.waitingValues += 1
            return true
        }
        limit.recordDrop()
        switch limit.overflow {
        case .dropNewest:
            return false
        case .dropOldest:
            // Only values wait before the newest event (a terminal one ends the queue).
            _ = queue.events.popFirst()
            return true
        case .fail:
            queue.overflowed = true
            // Values are waiting, so a delivery job is pending: it delivers the error after them.
            queue.events.append(.error(BufferOverflowError(capacity: limit.capacity)))
            return false
        }
    }

    /// Drops what is queued and cancels the pending job.
    func cancel() {
        queue.withLock { queue in
            queue.cancelled = true
            queue.events = RingBuffer()
        }
        job.dispose()
    }

    private static func claimJob(_ queue: inout Queue) -> UInt64 {
        queue.jobPending = true
        queue.generation += 1
        return queue.generation
    }

    private func scheduleJob(_ generation: UInt64) {
        job.schedule(generation, on: scheduler, after: .zero) { [self] in ContextPropagation.run(in: context) { runJob() } }
    }

    private func runJob() {
        let handedBack = queue.withLock { queue -> Bool in
            guard queue.schedulingNext else { return false }
            queue.nextHandedBack = true
            return true
        }
        if !handedBack { deliverBatches() }
    }

    private func deliverBatches() {
        while true {
            var batch = queue.withLock { queue -> RingBuffer<Event<Element>> in
                defer {
                    queue.events = RingBuffer()
                    queue.waitingValues = 0
                }
                return queue.cancelled ? RingBuffer() : queue.events
            }
            while let event = batch.popFirst() { downstream.event(event) }
            let next = queue.withLock { queue -> UInt64? in
                guard !queue.cancelled, !queue.events.isEmpty else {
                    queue.jobPending = false
                    return nil
                }
                queue.schedulingNext = true
                return Self.claimJob(&queue)
            }
            guard let next else { return }
            scheduleJob(next)
            let handedBack = queue.withLock { queue -> Bool in
                queue.schedulingNext = false
                defer { queue.nextHandedBack = false }
                return queue.nextHandedBack
            }
            guard handedBack else { return }
        }
    }
}
