// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore
import Synchronization

/// One piece of work an `EventLoopScheduler` holds until its deadline: its own entry in the
/// scheduler's heap (no separate entry to copy), so cancelling takes it out of the heap at once.
///
/// `state` makes run and cancel race-free. Cancelling one-shot work drops its closure at once:
/// the closure of an upstream timeout holds the whole exchange's subscription chain.
// @unchecked: `work` is read only by the thread whose compare-exchange moved `state` from pending
// (to done, or for repeating work while it stays pending) and cleared only by the one that moved it
// to cancelled, and only for one-shot work, so no two threads touch it at once; `deadline`
// and `heapIndex` are touched only under the lock of `queue`.
final class ScheduledWork: HeapPositioned, @unchecked Sendable {
    private var work: (@Sendable () -> Void)?
    /// Nanoseconds between runs of repeating work; nil for one-shot work.
    let period: UInt64?
    /// The heap this work is filed in, for `cancel` to take it out.
    let queue: TimerQueue
    private let state = Atomic<UInt8>(ScheduledWork.pending)
    private static let pending: UInt8 = 0, done: UInt8 = 1, cancelled: UInt8 = 2

    /// Monotonic nanoseconds when the work is due.
    var deadline: UInt64 = 0
    /// Position in the heap; -1 while not filed. Unchecked: only under `queue`'s lock (see above),
    /// where the heap's moves write it through `HeapPositioned`, each a runtime access check otherwise.
    @exclusivity(unchecked) var heapIndex = -1

    init(work: @escaping @Sendable () -> Void, period: UInt64?, queue: TimerQueue) {
        self.work = work
        self.period = period
        self.queue = queue
    }

    var isPending: Bool { state.load(ordering: .acquiring) == Self.pending }

    /// Stops work that has not run (repeating work: any further runs) and takes it out of the heap.
    func cancel() {
        guard state.compareExchange(expected: Self.pending, desired: Self.cancelled, ordering: .acquiringAndReleasing).exchanged else {
            return
        }
        if period == nil { work = nil }
        queue.remove(self)
    }

    func runIfPending() {
        if period == nil {
            guard state.compareExchange(expected: Self.pending, desired: Self.done, ordering: .acquiringAndReleasing).exchanged else { return }
        } else {
            guard isPending else { return }
        }
        work?()
    }
}
