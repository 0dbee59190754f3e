// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Synchronization
import Streams
import StreamsTesting

/// A `RepeatingScheduler` on virtual time, for testing how periodic streams cope
/// with a real repeating timer: each run fires `early` before its period (a clock
/// that is slightly off) or `late` after it (a busy loop), and only every `stride`-th period fires at all (the runs
/// in between merged into it, as Dispatch does when it is late).
struct VirtualRepeatingScheduler: RepeatingScheduler {
    let base: TestScheduler
    var early: Duration = .zero
    var late: Duration = .zero
    var stride = 1

    var now: Duration { base.now }

    func schedule(_ work: @escaping @Sendable () -> Void) {
        base.schedule(work)
    }

    @discardableResult
    func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> Disposable {
        base.schedule(after: delay, work)
    }

    func scheduleRepeating(after delay: Duration, every period: Duration, _ work: @escaping @Sendable () -> Void) -> Disposable {
        let job = RepeatingJob(base: base, origin: base.now + delay, period: period * stride, early: early - late, work: work)
        job.arm(run: 0)
        return Disposable { job.cancel() }
    }
}

/// The chain of one-shot timers behind one virtual repeating timer.
private final class RepeatingJob: Sendable {
    private let base: TestScheduler
    private let origin: Duration
    private let period: Duration
    private let early: Duration
    private let work: @Sendable () -> Void
    private let pending = Mutex<(timer: Disposable?, cancelled: Bool)>((nil, false))

    init(base: TestScheduler, origin: Duration, period: Duration, early: Duration, work: @escaping @Sendable () -> Void) {
        self.base = base
        self.origin = origin
        self.period = period
        self.early = early
        self.work = work
    }

    func arm(run: Int) {
        let due = origin + period * run - early
        let timer = base.schedule(after: due - base.now) { [self] in
            work()
            arm(run: run + 1)
        }
        let stale = pending.withLock { pending -> Disposable? in
            if pending.cancelled { return timer }
            pending.timer = timer
            return nil
        }
        stale?.dispose()
    }

    func cancel() {
        pending.withLock { pending -> Disposable? in
            pending.cancelled = true
            return pending.timer
        }?.dispose()
    }
}
