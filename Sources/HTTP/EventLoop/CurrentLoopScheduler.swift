// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Dispatch
import StreamServiceConcurrency
import NetCore
import Streams
import Synchronization

/// Schedules work on the event loop of whoever asks: an `EventLoopScheduler` per loop,
/// made on first use, and `fallback` for callers on no loop (a test thread, a Dispatch worker).
///
/// Upstream timeouts and back-offs are armed by the loop that runs the exchange. With one
/// shared `EventLoopScheduler` every loop pushed its timers into one heap behind one lock,
/// and the loops' threads handed that lock back and forth (about one futex call per request
/// that arms timeouts); with a scheduler per loop each heap has one user and the timer fires
/// on the thread whose work it times out.
public final class CurrentLoopScheduler: RepeatingScheduler {
    private let fallback: EventLoopScheduler
    private let leeway: Duration
    /// Owns the schedulers; each loop finds its own through `EventLoop.loopLocal` under `key`.
    private let perLoop = Locked<[ObjectIdentifier: EventLoopScheduler]>([:])
    private let key = CurrentLoopScheduler.keys.wrappingAdd(1, ordering: .relaxed).newValue
    private static let keys = Atomic<Int>(0)
    private let epoch = DispatchTime.now().uptimeNanoseconds

    /// A scheduler for whichever loop asks; callers on no loop get `fallback`'s, and timers may fire up to `leeway` late.
    public init(fallback: EventLoop = EventLoopGroup.shared.next(), leeway: Duration = .milliseconds(1)) {
        self.fallback = EventLoopScheduler(loop: fallback, leeway: leeway)
        self.leeway = leeway
    }

    public var now: Duration { .nanoseconds(DispatchTime.now().uptimeNanoseconds &- epoch) }

    /// The scheduler of the caller's loop, or the fallback's. Found on the loop itself: through
    /// one lock shared by every loop, each timeout armed had the loops' threads hand that lock
    /// back and forth.
    var current: EventLoopScheduler {
        guard let loop = EventLoop.current else { return fallback }
        if let found = loop.loopLocal(key) { return unsafeDowncast(found, to: EventLoopScheduler.self) }
        let scheduler = perLoop.withLock { schedulers in
            if let scheduler = schedulers[ObjectIdentifier(loop)] { return scheduler }
            let scheduler = EventLoopScheduler(loop: loop, leeway: leeway)
            schedulers[ObjectIdentifier(loop)] = scheduler
            return scheduler
        }
        loop.setLoopLocal(scheduler, for: key)
        return scheduler
    }

    /// Loops with a scheduler of their own so far (tests and diagnostics).
    var loopCount: Int { perLoop.withLock { $0.count } }

    public func schedule(_ work: @escaping @Sendable () -> Void) {
        current.schedule(work)
    }

    @discardableResult
    public func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> Disposable {
        current.schedule(after: delay, work)
    }

    public func scheduleRepeating(after delay: Duration, every period: Duration, _ work: @escaping @Sendable () -> Void) -> Disposable {
        current.scheduleRepeating(after: delay, every: period, work)
    }
}
