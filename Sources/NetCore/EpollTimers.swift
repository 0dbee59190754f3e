// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if os(Linux)
/// The timers of one `EpollLoop` in a `TimerHeap`: arming one files it (taking out its earlier
/// filing), cancelling takes it out, so the heap holds armed timers only.
struct EpollTimers {
    private var heap = TimerHeap()

    /// Files `timer` at `deadline`, replacing any earlier filing.
    mutating func arm(_ timer: LoopTimer.EpollState, deadline: UInt64) {
        heap.remove(timer)
        timer.deadline = deadline
        heap.push(timer, deadline: deadline)
    }

    mutating func disarm(_ timer: LoopTimer.EpollState) {
        heap.remove(timer)
    }

    /// epoll_wait's timeout for the earliest timer: -1 when there is none, else whole
    /// milliseconds rounded up, so a timer never fires early.
    func timeoutMilliseconds(now: UInt64) -> Int32 {
        guard let first = heap.first else { return -1 }
        guard first.deadline > now else { return 0 }
        return Int32(clamping: (first.deadline - now + 999_999) / 1_000_000)
    }

    /// Takes every timer due at `now`, in deadline order, for the caller to run (outside this
    /// mutation, since handlers arm timers); repeating ones are filed again on their grid (runs
    /// missed while the loop was busy merge into this one).
    mutating func takeDue(now: UInt64) -> [LoopTimer.EpollState] {
        var due: [LoopTimer.EpollState] = []
        while let first = heap.first, first.deadline <= now {
            let entry = heap.popFirst()
            let timer = unsafeDowncast(entry.timer, to: LoopTimer.EpollState.self)
            if let interval = timer.interval, interval > 0 {
                let missed = (now - entry.deadline) / interval
                timer.deadline = entry.deadline + (missed + 1) * interval
                heap.push(timer, deadline: timer.deadline)
            } else {
                timer.scheduled = false
            }
            due.append(timer)
        }
        return due
    }
}
#endif
