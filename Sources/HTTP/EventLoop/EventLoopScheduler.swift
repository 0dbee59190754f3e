// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

// Dispatch sources are thread-safe but not yet annotated Sendable on Linux.
@preconcurrency import Dispatch
import StreamServiceConcurrency
import NetCore
import Streams

/// A scheduler whose work runs on one event loop, with every pending timer
/// in one heap behind a single Dispatch timer armed for the earliest deadline.
///
/// Timed work for a connection (a `/ticks` feed's `interval`) then runs on the
/// loop that writes the response, with no thread hop, and the timers of
/// thousands of feeds cost one Dispatch timer per loop: each time it fires,
/// everything due runs in the same loop turn. A `QueueScheduler` timer per
/// feed costs a Dispatch timer, a wake-up and a queue hop per tick instead,
/// which at 5,000 feeds × 10 ticks a second keeps the cores busy switching threads.
///
/// Work never runs before its deadline; it may run up to `leeway` late, the
/// slack that lets Dispatch and the kernel batch wake-ups.
public final class EventLoopScheduler: RepeatingScheduler {
    /// The loop every piece of work runs on.
    public let loop: EventLoop
    private let leeway: DispatchTimeInterval
    private let epoch = DispatchTime.now().uptimeNanoseconds
    private let queue = TimerQueue()

    /// A scheduler running work on `loop`, its timers up to `leeway` late.
    public init(loop: EventLoop, leeway: Duration = .milliseconds(1)) {
        self.loop = loop
        self.leeway = .nanoseconds(Int(leeway.nanoseconds))
    }

    public var now: Duration { .nanoseconds(DispatchTime.now().uptimeNanoseconds &- epoch) }

    public func schedule(_ work: @escaping @Sendable () -> Void) {
        loop.execute(ContextPropagation.carrying(work))
    }

    @discardableResult
    public func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> Disposable {
        add(ScheduledWork(work: ContextPropagation.carrying(work), period: nil, queue: queue), after: delay)
    }

    public func scheduleRepeating(after delay: Duration, every period: Duration, _ work: @escaping @Sendable () -> Void) -> Disposable {
        add(ScheduledWork(work: ContextPropagation.carrying(work), period: max(1, period.nanoseconds), queue: queue), after: delay)
    }

    /// Timers waiting in the heap (cancelled ones leave it at once).
    var pendingCount: Int { queue.state.withLock { $0.count } }

    private func add(_ scheduled: ScheduledWork, after delay: Duration) -> Disposable {
        let now = DispatchTime.now().uptimeNanoseconds
        let deadline = now + delay.nanoseconds
        let fireNow = queue.state.withLock { timers -> Bool in
            timers.push(scheduled, deadline: deadline)
            // Already due (a feed's first tick): a queued job is far cheaper than re-arming the loop timer.
            guard deadline <= now else {
                armIfEarlier(&timers)
                return false
            }
            defer { timers.fireQueued = true }
            return !timers.fireQueued
        }
        if fireNow { loop.execute { [self] in fire(timerExpired: false) } }
        // The action captures the work alone, so it needs no closure context of its own.
        return Disposable { scheduled.cancel() }
    }

    /// Runs every timer that is due, re-files the repeating ones, and re-arms for the next deadline.
    private func fire(timerExpired: Bool) {
        let now = DispatchTime.now().uptimeNanoseconds
        let due = queue.state.withLock { timers -> [ScheduledWork] in
            if timerExpired { timers.armedDeadline = nil } else { timers.fireQueued = false }
            var due: [ScheduledWork] = []
            while let first = timers.first, first.deadline <= now {
                let work = timers.popFirst()
                guard work.isPending else { continue }
                due.append(work)
                if let period = work.period {
                    // Next run on the original grid; runs missed while late are merged into this one.
                    let missed = (now - work.deadline) / period
                    timers.push(work, deadline: work.deadline + (missed + 1) * period)
                }
            }
            armIfEarlier(&timers)
            return due
        }
        // Feeds due together send in one batch: a last tick and the end of its response share a segment.
        loop.batchingWrites {
            for scheduled in due { scheduled.runIfPending() }
        }
    }

    private func armIfEarlier(_ timers: inout TimerQueue.State) {
        guard let earliest = timers.first?.deadline else { return }
        if let armed = timers.armedDeadline, armed <= earliest { return }
        let source = timers.source ?? {
            let source = loop.makeTimer()
            // Unretained, not `[weak self]`: a weak reference gives this per-loop scheduler a side table, and
            // each of its retains and releases (every timed piece of work on the loop) then takes the
            // runtime's slow path (~75–95 instructions instead of ~22). Sound: deinit cancels the timer on the loop.
            let target = Unretained(self)
            source.setEventHandler { target.with { $0.fire(timerExpired: true) } }
            source.activate()
            timers.source = source
            return source
        }()
        timers.armedDeadline = earliest
        source.schedule(deadline: DispatchTime(uptimeNanoseconds: earliest), leeway: leeway)
    }

    deinit {
        // Filed work refers to the queue: emptying the heap ends those cycles. The timer's handler
        // refers to this scheduler unretained: it is cancelled on the loop before the memory goes
        // (from another thread a pending expiry would otherwise run the handler on a freed scheduler).
        let queue = self.queue
        let cancel = {
            queue.state.withLock { timers in
                timers.source?.cancel()
                timers.removeAll()
            }
        }
        if loop.inLoop || queue.state.withLock({ $0.source == nil }) { cancel() } else { loop.sync(cancel) }
    }
}
