// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency

// Dispatch sources are thread-safe but not yet annotated Sendable on Linux.
@preconcurrency import Dispatch

/// Runs work on a `DispatchQueue`; delayed work uses a one-shot Dispatch timer,
/// so cancelling it frees the timer at once.
public struct QueueScheduler: Scheduler {
    /// The queue the work runs on.
    public let queue: DispatchQueue
    private let epoch: ContinuousClock.Instant

    /// A scheduler on `queue`.
    public init(queue: DispatchQueue) {
        self.queue = queue
        self.epoch = .now
    }

    /// A scheduler on a new serial queue named `label`.
    public init(label: String, qos: DispatchQoS = .default) {
        self.init(queue: DispatchQueue(label: label, qos: qos))
    }

    /// A scheduler on the global concurrent queue.
    public static let global = QueueScheduler(queue: .global())

    public var now: Duration { ContinuousClock.now - epoch }

    public func schedule(_ work: @escaping @Sendable () -> Void) {
        queue.async(execute: ContextPropagation.carrying(work))
    }

    @discardableResult
    public func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> Disposable {
        let work = ContextPropagation.carrying(work)
        guard delay > .zero else {
            // Already due: a plain async costs far less than arming a Dispatch timer,
            // which matters for observe(on:), which schedules one such job per batch.
            let cancellation = Disposable()
            queue.async {
                guard !cancellation.isDisposed else { return }
                cancellation.dispose()
                work()
            }
            return cancellation
        }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let cancellation = Disposable { timer.cancel() }
        timer.setEventHandler {
            guard !cancellation.isDisposed else { return }
            cancellation.dispose()
            work()
        }
        timer.schedule(deadline: .now() + delay.dispatchInterval, leeway: .milliseconds(1))
        timer.activate()
        return cancellation
    }
}
