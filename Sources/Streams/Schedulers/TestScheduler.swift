// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Synchronization

/// A scheduler on virtual time, for tests: nothing runs until the test
/// advances the clock, and then everything due runs at once, in time order.
///
///     let scheduler = TestScheduler()
///     stream.debounce(.milliseconds(300), scheduler: scheduler).watch(using: recorder)
///     scheduler.advance(by: .milliseconds(300))   // runs all work due at or before 300 ms
///
/// Work due at the same instant runs in the order it was scheduled. Work that
/// schedules more work due within the advanced span runs within the same call.
public final class TestScheduler: Scheduler {
    private struct Job {
        let due: Duration
        let order: UInt64
        let work: @Sendable () -> Void
        let cancellation: Disposable
    }

    private struct State {
        var now: Duration = .zero
        var nextOrder: UInt64 = 0
        var jobs: [Job] = []   // kept sorted by (due, order)
    }

    private let state = Mutex(State())

    /// A scheduler whose virtual clock stands at zero.
    public init() {}

    public var now: Duration { state.withLock { $0.now } }

    /// Runs `work` at the current virtual time, on the next `advance` or `run`.
    public func schedule(_ work: @escaping @Sendable () -> Void) {
        schedule(after: .zero, work)
    }

    @discardableResult
    public func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> Disposable {
        let cancellation = Disposable()
        state.withLock { state in
            let job = Job(due: state.now + max(delay, .zero), order: state.nextOrder, work: ContextPropagation.carrying(work), cancellation: cancellation)
            state.nextOrder += 1
            let index = state.jobs.partitionPoint { ($0.due, $0.order) > (job.due, job.order) }
            state.jobs.insert(job, at: index)
        }
        return cancellation
    }

    /// Moves virtual time forward by `span`, running everything due on the way.
    public func advance(by span: Duration) {
        advance(to: now + span)
    }

    /// Moves virtual time to `instant`, running everything due at or before it.
    public func advance(to instant: Duration) {
        while let job = nextJob(dueBy: instant) {
            if !job.cancellation.isDisposed { job.work() }
        }
        state.withLock { $0.now = max($0.now, instant) }
    }

    /// Runs until no work is left (time jumps from one job to the next).
    public func run() {
        while let job = nextJob(dueBy: nil) {
            if !job.cancellation.isDisposed { job.work() }
        }
    }

    /// Number of scheduled jobs not yet run or cancelled.
    public var pendingCount: Int {
        state.withLock { $0.jobs.filter { !$0.cancellation.isDisposed }.count }
    }

    private func nextJob(dueBy limit: Duration?) -> Job? {
        state.withLock { state in
            guard let first = state.jobs.first, limit.map({ first.due <= $0 }) ?? true else { return nil }
            state.jobs.removeFirst()
            state.now = max(state.now, first.due)
            return first
        }
    }
}

private extension Array {
    /// The index of the first element for which `isAfter` is true, given the array is partitioned by it.
    func partitionPoint(_ isAfter: (Element) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let mid = (low + high) / 2
            if isAfter(self[mid]) { high = mid } else { low = mid + 1 }
        }
        return low
    }
}
