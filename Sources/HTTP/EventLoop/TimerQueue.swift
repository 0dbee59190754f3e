// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import NetCore

/// The pending work of one `EventLoopScheduler`, earliest first, behind one lock, and the state
/// of the one loop timer that serves it: NetCore's `TimerHeap` of the `ScheduledWork` objects
/// themselves, each knowing its position, so cancelling removes it at once and the heap holds
/// live work only.
final class TimerQueue: Sendable {
    struct State {
        private var heap = TimerHeap()
        var source: LoopTimer?
        var armedDeadline: UInt64?
        /// A `fire` job is already queued on the loop for work that was due when added.
        var fireQueued = false

        var first: ScheduledWork? { heap.first.map { unsafeDowncast($0.timer, to: ScheduledWork.self) } }
        var count: Int { heap.count }

        /// Files `work` due at `deadline`.
        mutating func push(_ work: ScheduledWork, deadline: UInt64) {
            work.deadline = deadline
            heap.push(work, deadline: deadline)
        }

        /// Takes the earliest work out; the heap must not be empty.
        mutating func popFirst() -> ScheduledWork {
            unsafeDowncast(heap.popFirst().timer, to: ScheduledWork.self)
        }

        mutating func remove(_ work: ScheduledWork) {
            heap.remove(work)
        }

        /// Empties the heap (the scheduler is going away).
        mutating func removeAll() {
            heap.removeAll()
        }
    }

    let state = Locked(State())

    /// Takes cancelled work out of the heap.
    func remove(_ work: ScheduledWork) {
        state.withLock { $0.remove(work) }
    }
}
