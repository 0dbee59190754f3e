// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Streams

/// A `RepeatingScheduler` on a `TestScheduler`'s virtual time, for testing code that gives its
/// periodic work to a repeating timer when the scheduler offers one (`interval`, a periodic
/// `timer`, your own periodic flush): each run is a one-shot timer on `base`, armed as the one
/// before fires, at `delay + K × period` from when it was asked. It can be made as imperfect as a
/// real timer: each run fires `early` before its due time (a clock that is slightly off) or `late`
/// after it (a busy loop), and only every `stride`-th period fires at all, the runs in between
/// merged into it, as Dispatch does when it is late. Disposing of the timer cancels the run
/// armed, so `base.pendingCount` is 0 after it.
///
///     let base = TestScheduler()
///     let scheduler = VirtualRepeatingScheduler(base: base, late: .milliseconds(70))
///     let (recorder, subscription) = base.record(DataStream.interval(.milliseconds(100), scheduler: scheduler))
///     base.advance(to: .milliseconds(400))
///     XCTAssertEqual(recorder.events, [.at(70, .data(0)), .at(170, .data(1)), .at(270, .data(2)), .at(370, .data(3))])
public struct VirtualRepeatingScheduler: RepeatingScheduler {
    /// The virtual clock every run is scheduled on; the one a test advances.
    public let base: TestScheduler
    /// How long before its due time each run fires.
    public var early: Duration
    /// How long after its due time each run fires.
    public var late: Duration
    /// Every `stride`-th period fires, with the runs of the periods between merged into it.
    public var stride: Int

    /// A repeating timer on `base` whose runs fire `early` or `late`, every `stride`-th period.
    public init(base: TestScheduler, early: Duration = .zero, late: Duration = .zero, stride: Int = 1) {
        self.base = base
        self.early = early
        self.late = late
        self.stride = stride
    }

    public var now: Duration { base.now }

    public func schedule(_ work: @escaping @Sendable () -> Void) {
        base.schedule(work)
    }

    @discardableResult
    public func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> Disposable {
        base.schedule(after: delay, work)
    }

    public func scheduleRepeating(after delay: Duration, every period: Duration, _ work: @escaping @Sendable () -> Void) -> Disposable {
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
    private let pending = Locked<(timer: Disposable?, cancelled: Bool)>((nil, false))

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
