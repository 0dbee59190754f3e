import ConcurrencyHelpers

/// The one pending timer of an operator. Starting a newer timer cancels the older
/// one; closing the slot cancels the pending timer and every later one, so a
/// disposed or terminated operator leaves nothing scheduled.
///
/// Timers carry the operator's generation number: when two threads start timers at
/// once, the newer generation wins whichever order they finish in. Work that may
/// race a cancellation must still check its generation, since a timer can already
/// be running when it is cancelled.
final class TimerSlot: Sendable {
    private struct Slot {
        var generation: UInt64 = 0
        var timer: Disposable?
        var closed = false
    }

    private let slot = Locked(Slot())

    /// Schedules `work` after `delay`, replacing any older timer. Generations must
    /// increase from 1; a start whose generation is not newer than the last one, or
    /// that comes after `close()`, is ignored.
    func start(
        _ generation: UInt64,
        on scheduler: any Scheduler,
        after delay: Duration,
        _ work: @escaping @Sendable () -> Void
    ) {
        install(generation) { scheduler.schedule(after: delay, work) }
    }

    /// Installs the timer `arm` creates under `generation`, with the rules of `start`.
    func install(_ generation: UInt64, _ arm: () -> Disposable) {
        let (accepted, previous) = slot.withLock { slot -> (Bool, Disposable?) in
            guard !slot.closed, generation > slot.generation else { return (false, nil) }
            slot.generation = generation
            defer { slot.timer = nil }
            return (true, slot.timer)
        }
        previous?.dispose()
        guard accepted else { return }
        let timer = arm()
        let unwanted = slot.withLock { slot -> Disposable? in
            guard !slot.closed, slot.generation == generation else { return timer }
            slot.timer = timer
            return nil
        }
        unwanted?.dispose()
    }

    /// Cancels the pending timer and refuses any later one.
    func close() {
        let pending = slot.withLock { slot -> Disposable? in
            slot.closed = true
            defer { slot.timer = nil }
            return slot.timer
        }
        pending?.dispose()
    }
}
