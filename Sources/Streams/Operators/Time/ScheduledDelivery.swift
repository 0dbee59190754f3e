import ConcurrencyHelpers

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
        var events: [Event<Element>] = []
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
        job.start(generation, on: scheduler, after: .zero) { [self] in runJob() }
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
            let batch = queue.withLock { queue -> [Event<Element>] in
                defer { queue.events = [] }
                return queue.cancelled ? [] : queue.events
            }
            for event in batch { downstream.event(event) }
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
