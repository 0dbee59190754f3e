// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency

/// Feeds a watcher 0, 1, 2, … with tick K due at `origin + K × period` on the
/// scheduler's clock, the engine of `interval` and periodic `timer`.
///
/// Ticks are placed relative to the origin, not to the previous tick, so lateness
/// never accumulates (no drift). On a `RepeatingScheduler` one repeating timer
/// drives all ticks; on any other scheduler each tick schedules the next one.
/// Either way, a run that finds later ticks already due (the scheduler ran late)
/// emits those too, in order, so none is skipped; and the next one-shot delay is
/// always positive, so nothing recurses.
final class PeriodicTicker: Sendable {
    private let watcher: Watcher<Int>
    private let scheduler: any Scheduler
    private let origin: Duration
    private let period: Duration
    private let timer = SerialDisposable()
    /// The index of the next tick. Only one tick run is active at a time; the lock
    /// makes the index visible across the threads those runs happen on.
    private let nextIndex = Locked(0)

    init(feeding watcher: Watcher<Int>, firstAfter delay: Duration, period: Duration, scheduler: any Scheduler) {
        self.watcher = watcher
        self.scheduler = scheduler
        self.origin = scheduler.now + max(delay, .zero)
        self.period = period
    }

    func start() {
        let now = scheduler.now
        if let repeating = scheduler as? any RepeatingScheduler {
            timer.install(1) {
                repeating.scheduleRepeating(after: origin - now, every: period) { [self] in repeatingRun() }
            }
        } else {
            scheduleOneShot(index: 0, now: now)
        }
    }

    func cancel() {
        timer.dispose()
    }

    private func due(_ index: Int) -> Duration {
        origin + period * index
    }

    private func scheduleOneShot(index: Int, now: Duration) {
        timer.schedule(UInt64(index) + 1, on: scheduler, after: due(index) - now) { [self] in oneShotRun() }
    }

    /// A one-shot timer fires exactly for the next tick (or late): emit it and any
    /// overdue ones, then schedule the next.
    private func oneShotRun() {
        var index = nextIndex.withLock { $0 }
        var now = scheduler.now
        repeat {
            watcher.data(index)
            index += 1
            now = scheduler.now
        } while !watcher.isStopped && due(index) <= now
        nextIndex.withLock { $0 = index }
        if !watcher.isStopped { scheduleOneShot(index: index, now: now) }
    }

    /// A repeating timer may fire a little early on our clock, late, or once for
    /// several missed periods. The first pending tick is this run's own, so it is
    /// emitted if it is due within half a period; the ones after it only if they
    /// are already due. (Accepting them within half a period too let a run 32 ms
    /// late on a 40 ms period emit the next tick 8 ms early.)
    private func repeatingRun() {
        var index = nextIndex.withLock { $0 }
        let now = scheduler.now
        if !watcher.isStopped && due(index) <= now + period / 2 {
            watcher.data(index)
            index += 1
        }
        while !watcher.isStopped && due(index) <= now {
            watcher.data(index)
            index += 1
        }
        nextIndex.withLock { $0 = index }
    }
}
