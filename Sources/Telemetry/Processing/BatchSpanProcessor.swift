// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Streams

/// The OTel SDK's batch span processor: ended spans wait in a bounded queue and leave in batches,
/// when a batch is full or every `scheduleDelay`. A span ending while the queue is full is dropped
/// and counted: an absent collector costs spans, never memory, and never blocks the thread that
/// ended the span (the export runs on `scheduler`). One export is in flight at a time.
public final class BatchSpanProcessor: SpanProcessor {
    /// `OTEL_BSP_MAX_QUEUE_SIZE`, `OTEL_BSP_MAX_EXPORT_BATCH_SIZE`, `OTEL_BSP_SCHEDULE_DELAY` (the spec's defaults).
    public struct Limits: Sendable, Equatable {
        public var maxQueueSize = 2048
        public var maxExportBatchSize = 512
        public var scheduleDelay: Duration = .milliseconds(5000)
        public init() {}
    }

    private struct State {
        var queue: [SpanRecord] = []
        var exporting = false
        var flushWaiters: [@Sendable () -> Void] = []
        var timer: Disposable?
        var timerStopped = false
        var stopped = false
    }

    public let limits: Limits
    public let counters: TracingCounters
    private let exporter: any SpanExporter
    private let scheduler: any Scheduler
    private let state = Locked(State())

    /// Starts the schedule-delay timer on `scheduler` (the tests give a `TestScheduler`).
    public init(exporter: any SpanExporter, limits: Limits = Limits(), counters: TracingCounters, scheduler: any Scheduler) {
        self.exporter = exporter
        self.limits = limits
        self.counters = counters
        self.scheduler = scheduler
        armTimer()
    }

    /// Spans waiting in the queue.
    public var queuedCount: Int { state.withLock { $0.queue.count } }

    public func onEnd(_ span: consuming SpanRecord) {
        // Moved into the queue, not copied into it and released here.
        let (accepted, batchReady) = state.withLock(handing: span) { state, span -> (Bool, Bool) in
            guard !state.stopped, state.queue.count < limits.maxQueueSize else { return (false, false) }
            state.queue.append(span)
            return (true, state.queue.count == limits.maxExportBatchSize && !state.exporting)
        }
        guard accepted else {
            counters.spansDropped(1, state.withLock { $0.stopped } ? .shutdown : .queueFull)
            return
        }
        if batchReady { scheduler.schedule { [self] in exportNext(force: false) } }
    }

    public func forceFlush(completion: @escaping @Sendable () -> Void) {
        let done = state.withLock { state -> Bool in
            guard !state.queue.isEmpty || state.exporting else { return true }
            state.flushWaiters.append(completion)
            return false
        }
        if done { return completion() }
        scheduler.schedule { [self] in exportNext(force: true) }
    }

    public func shutdown(completion: @escaping @Sendable () -> Void) {
        let timer = state.withLock { state -> Disposable? in
            // Spans ending from now on are dropped; those queued still leave.
            state.stopped = true
            state.timerStopped = true
            defer { state.timer = nil }
            return state.timer
        }
        timer?.dispose()
        forceFlush { [self] in
            let left = state.withLock { state -> Int in
                defer { state.queue = [] }
                return state.queue.count
            }
            counters.spansDropped(left, .shutdown)
            completion()
        }
    }

    private func armTimer() {
        let timer = scheduler.schedule(after: limits.scheduleDelay) { [self] in
            exportNext(force: true)
            armTimer()
        }
        let kept = state.withLock { state -> Bool in
            guard !state.timerStopped else { return false }
            state.timer = timer
            return true
        }
        if !kept { timer.dispose() }
    }

    /// Takes the next batch unless one is in flight. `force`: a batch smaller than full goes too
    /// (the timer, a flush); otherwise only a full batch.
    private func exportNext(force: Bool) {
        let batch = state.withLock { state -> [SpanRecord]? in
            let flushing = !state.flushWaiters.isEmpty
            guard !state.exporting, !state.queue.isEmpty,
                force || flushing || state.queue.count >= limits.maxExportBatchSize
            else { return nil }
            let count = min(state.queue.count, limits.maxExportBatchSize)
            // The whole queue leaves as it is (no span copied out and released behind it) when it fits a batch.
            guard count < state.queue.count else {
                state.exporting = true
                // The next batch's room made at once: from empty, the queue grew and was
                // copied ten times on its way to 512 spans (about 8 k instructions a `/users` request).
                var next: [SpanRecord] = []
                next.reserveCapacity(min(limits.maxExportBatchSize, limits.maxQueueSize))
                swap(&next, &state.queue)
                return next
            }
            let batch = Array(state.queue.prefix(count))
            state.queue.removeFirst(count)
            state.exporting = true
            return batch
        }
        guard let batch else { return finishFlushIfDone() }
        exporter.export(batch) { [self] delivered in
            if delivered {
                counters.spansExported(batch.count)
            } else {
                counters.exportFailed()
                counters.spansDropped(batch.count, .exportFailed)
            }
            state.withLock { $0.exporting = false }
            scheduler.schedule { [self] in exportNext(force: false) }
        }
    }

    /// Runs the flush waiters once nothing is queued or in flight.
    private func finishFlushIfDone() {
        let waiters = state.withLock { state -> [@Sendable () -> Void] in
            guard state.queue.isEmpty, !state.exporting else { return [] }
            defer { state.flushWaiters = [] }
            return state.flushWaiters
        }
        for waiter in waiters { waiter() }
    }
}
