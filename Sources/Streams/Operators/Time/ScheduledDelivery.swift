/// Hands a watcher its events on a scheduler, in order, one batch per scheduled
/// job: the engine of `observe(on:)`.
///
/// At most one delivery job is pending or running at a time, so even on a
/// concurrent queue the watcher gets one event at a time, in arrival order. A job
/// delivers what was queued when it started and schedules another for later
/// arrivals, so a busy source cannot monopolise a serial queue.
final class ScheduledDelivery<Element: Sendable>: Sendable {
    private struct Queue {
        var events: [Event<Element>] = []
        var jobPending = false
        var generation: UInt64 = 0
        var cancelled = false
    }

    private let downstream: Watcher<Element>
    private let scheduler: any Scheduler
    private let queue = Locked(Queue())
    private let job = TimerSlot()

    init(to downstream: Watcher<Element>, on scheduler: any Scheduler) {
        self.downstream = downstream
        self.scheduler = scheduler
    }

    func enqueue(_ event: Event<Element>) {
        let generation = queue.withLock { queue -> UInt64? in
            guard !queue.cancelled else { return nil }
            queue.events.append(event)
            return queue.jobPending ? nil : Self.claimJob(&queue)
        }
        if let generation { scheduleJob(generation) }
    }

    /// Drops what is queued and cancels the pending job.
    func cancel() {
        queue.withLock { queue in
            queue.cancelled = true
            queue.events = []
        }
        job.close()
    }

    private static func claimJob(_ queue: inout Queue) -> UInt64 {
        queue.jobPending = true
        queue.generation += 1
        return queue.generation
    }

    private func scheduleJob(_ generation: UInt64) {
        job.start(generation, on: scheduler, after: .zero) { [self] in deliverBatch() }
    }

    private func deliverBatch() {
        let batch = queue.withLock { queue -> [Event<Element>] in
            defer { queue.events = [] }
            return queue.cancelled ? [] : queue.events
        }
        for event in batch { downstream.event(event) }
        let generation = queue.withLock { queue -> UInt64? in
            guard !queue.cancelled, !queue.events.isEmpty else {
                queue.jobPending = false
                return nil
            }
            return Self.claimJob(&queue)
        }
        if let generation { scheduleJob(generation) }
    }
}
