// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Dispatch

/// Runs work on a concurrent `DispatchQueue`, at most `maxConcurrentJobs` pieces at
/// once; the rest wait in order of scheduling (OperationQueue's
/// `maxConcurrentOperationCount`; RxSwift: `OperationQueueScheduler`; Combine: an
/// `OperationQueue` as scheduler; ReactiveSwift: none).
///
///     LimitedConcurrencyScheduler(maxConcurrentJobs: 2), 4 jobs of 1 s:
///     job 1: [====]
///     job 2: [====]
///     job 3:       [====]
///     job 4:       [====]
///
/// Use it to keep a burst of work (say, one image decode per downloaded picture) from taking
/// every core. With `maxConcurrentJobs: 1` it is a serial scheduler. Cancelling a
/// waiting job removes it from the line without running it.
public final class LimitedConcurrencyScheduler: Scheduler {
    private struct Line {
        var running = 0
        var waiting = RingBuffer<(work: @Sendable () -> Void, cancellation: Disposable)>()
    }

    /// The most jobs that run at once.
    public let maxConcurrentJobs: Int
    private let queue: DispatchQueue
    private let timers: QueueScheduler
    private let line = Locked(Line())

    /// At most `maxConcurrentJobs` (≥ 1) at once on `queue` (the global concurrent queue by default).
    public init(maxConcurrentJobs: Int, queue: DispatchQueue = .global()) {
        self.maxConcurrentJobs = max(1, maxConcurrentJobs)
        self.queue = queue
        timers = QueueScheduler(queue: queue)
    }

    public var now: Duration { timers.now }

    /// Jobs running now (for tests and metrics).
    public var runningCount: Int { line.withLock { $0.running } }

    public func schedule(_ work: @escaping @Sendable () -> Void) {
        enqueue(work, cancellation: Disposable())
    }

    @discardableResult
    public func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> Disposable {
        let cancellation = Disposable()
        if delay <= .zero {
            enqueue(work, cancellation: cancellation)
        } else {
            let timer = timers.schedule(after: delay) { [self] in enqueue(work, cancellation: cancellation) }
            cancellation.appendAction { timer.dispose() }
        }
        return cancellation
    }

    private func enqueue(_ work: @escaping @Sendable () -> Void, cancellation: Disposable) {
        let work = ContextPropagation.carrying(work)
        let startNow = line.withLock { line -> Bool in
            guard line.running < maxConcurrentJobs else {
                line.waiting.append((work, cancellation))
                return false
            }
            line.running += 1
            return true
        }
        if startNow { start(work, cancellation) }
    }

    private func start(_ work: @escaping @Sendable () -> Void, _ cancellation: Disposable) {
        queue.async { [self] in
            if !cancellation.isDisposed { work() }
            finished()
        }
    }

    /// A job ended: hand its place to the next waiting job that is still wanted.
    private func finished() {
        let next = line.withLock { line -> (work: @Sendable () -> Void, cancellation: Disposable)? in
            while let job = line.waiting.popFirst() {
                if !job.cancellation.isDisposed { return job }
            }
            line.running -= 1
            return nil
        }
        if let next { start(next.work, next.cancellation) }
    }
}
