// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Runs work on the calling thread, but never nested: work scheduled while this
/// thread is already running scheduled work waits in the thread's queue and runs
/// when the current piece returns (RxSwift: `CurrentThreadScheduler`, the
/// trampoline; ReactiveSwift: none; Combine: `ImmediateScheduler` has no queue).
///
///     scheduler.schedule {            // runs at once: outer-start
///         scheduler.schedule { … }    // queued: inner runs after outer-end
///     }                               // outer-end, then inner, before schedule returns
///
/// So recursive scheduling (a stream re-subscribing itself) uses constant stack,
/// and work keeps the order it was scheduled in. Delayed work waits on a background
/// timer, never by blocking the caller, and then runs through that timer thread's
/// trampoline.
public struct CurrentThreadScheduler: Scheduler {
    private let delayed = QueueScheduler(label: "streams.current-thread-scheduler.delayed")

    /// A scheduler on the calling thread.
    public init() {}

    /// Whether this thread is running scheduled work now (so `schedule` would queue).
    public static var isRunning: Bool { TrampolineQueue.current?.running ?? false }

    public var now: Duration { delayed.now }

    public func schedule(_ work: @escaping @Sendable () -> Void) {
        run(work, cancellation: nil)
    }

    @discardableResult
    public func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> Disposable {
        let cancellation = Disposable()
        if delay <= .zero {
            run(work, cancellation: cancellation)
        } else {
            let work = ContextPropagation.carrying(work)
            let timer = delayed.schedule(after: delay) { [self] in run(work, cancellation: cancellation) }
            cancellation.appendAction { timer.dispose() }
        }
        return cancellation
    }

    private func run(_ work: @escaping @Sendable () -> Void, cancellation: Disposable?) {
        let queue = TrampolineQueue.forCurrentThread()
        if queue.running {
            // Runs later, after whatever binds a context now has returned: it keeps its own.
            queue.pending.append((ContextPropagation.carrying(work), cancellation))
            return
        }
        queue.running = true
        defer { queue.running = false }
        if cancellation?.isDisposed != true { work() }
        while let (next, nextCancellation) = queue.pending.popFirst() {
            if nextCancellation?.isDisposed != true { next() }
        }
    }
}

/// One thread's queue of trampolined work; only its own thread touches it.
private final class TrampolineQueue {
    var running = false
    var pending = RingBuffer<(@Sendable () -> Void, Disposable?)>()

    private static let queues = ThreadLocal<TrampolineQueue>()

    static var current: TrampolineQueue? { queues.ifMade }

    static func forCurrentThread() -> TrampolineQueue { queues.value { TrampolineQueue() } }
}
