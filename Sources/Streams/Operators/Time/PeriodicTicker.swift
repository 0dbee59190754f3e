/// Feeds a watcher 0, 1, 2, … with tick K due at `origin + K × period` on the
/// scheduler's clock, the engine of `interval` and periodic `timer`.
///
/// Each tick is scheduled relative to the origin, not to the previous tick, so
/// lateness never accumulates (no drift). A tick that finds later ticks already due
/// (the scheduler ran late) emits those too, in order, before scheduling the next
/// one; so the next delay is always positive and nothing recurses.
final class PeriodicTicker: Sendable {
    private let watcher: Watcher<Int>
    private let scheduler: any Scheduler
    private let origin: Duration
    private let period: Duration
    private let timer = TimerSlot()
    /// The index of the next tick. Only the single pending tick job touches it;
    /// the lock makes that visible across the threads those jobs run on.
    private let nextIndex = PosixLock(0)

    init(feeding watcher: Watcher<Int>, firstAfter delay: Duration, period: Duration, scheduler: any Scheduler) {
        self.watcher = watcher
        self.scheduler = scheduler
        self.origin = scheduler.now + max(delay, .zero)
        self.period = period
    }

    func start() {
        schedule(index: 0, now: scheduler.now)
    }

    func cancel() {
        timer.close()
    }

    private func due(_ index: Int) -> Duration {
        origin + period * index
    }

    private func schedule(index: Int, now: Duration) {
        timer.start(UInt64(index) + 1, on: scheduler, after: due(index) - now) { [self] in
            tick()
        }
    }

    private func tick() {
        var index = nextIndex.withLock { $0 }
        var now = scheduler.now
        repeat {
            watcher.data(index)
            index += 1
            now = scheduler.now
        } while !watcher.isStopped && due(index) <= now
        nextIndex.withLock { $0 = index }
        if !watcher.isStopped { schedule(index: index, now: now) }
    }
}
