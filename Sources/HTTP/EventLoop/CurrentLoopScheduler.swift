// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Dispatch
import NetCore
import Streams

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
    /// The schedulers of the loops that asked.
    private let perLoop: PerLoop<EventLoopScheduler>
    private let epoch = DispatchTime.now().uptimeNanoseconds

    /// A scheduler for whichever loop asks; callers on no loop get `fallback`'s, and timers may fire up to `leeway` late.
    public init(fallback: EventLoop = EventLoopGroup.shared.next(), leeway: Duration = .milliseconds(1)) {
        self.fallback = EventLoopScheduler(loop: fallback, leeway: leeway)
        perLoop = PerLoop { loop in EventLoopScheduler(loop: loop, leeway: leeway) }
    }

    public var now: Duration { .nanoseconds(DispatchTime.now().uptimeNanoseconds &- epoch) }

    /// The scheduler of the caller's loop (found on the loop itself: `PerLoop`), or the fallback's.
    var current: EventLoopScheduler {
        guard let loop = EventLoop.current else { return fallback }
        return perLoop.value(on: loop)
    }

    /// Loops with a scheduler of their own so far (tests and diagnostics).
    var loopCount: Int { perLoop.count }

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
