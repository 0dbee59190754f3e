// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Streams

/// The OTel SDK's batch span processor: ended spans wait in a bounded queue and leave in batches,
/// when a batch is full or every `scheduleDelay`. A span ending while the queue is full is dropped
/// and counted: an absent collector costs spans, never memory, and never blocks the thread that
/// ended the span (the export runs on `scheduler`). One export is in flight at a time.
/// To the OTLP exporter in protobuf (the default), spans are written into their batch's buffer
/// as they end (`EncodedSpanQueue`, `stream`); to any other exporter, or in OTLP/JSON, they wait
/// as `SpanRecord`s (the slow twin: the tests hold the two bodies equal).
// @unchecked: `state` is only touched between `lock.lock()` and `lock.unlock()` (`withLock`).
public final class BatchSpanProcessor: SpanProcessor, @unchecked Sendable {
    /// `OTEL_BSP_MAX_QUEUE_SIZE`, `OTEL_BSP_MAX_EXPORT_BATCH_SIZE`, `OTEL_BSP_SCHEDULE_DELAY` (the spec's defaults).
    public struct Limits: Sendable, Equatable {
        public var maxQueueSize = 2048
        public var maxExportBatchSize = 512
        public var scheduleDelay: Duration = .milliseconds(5000)
        public init() {}
    }

    private struct State {
        /// The records waiting, unless `encoded` takes the spans.
        var queue: [SpanRecord] = []
        /// The spans waiting, written, when the exporter takes them so (`stream`).
        var encoded: EncodedSpanQueue?
        var exporting = false
        var flushWaiters: [@Sendable () -> Void] = []
        var timer: Disposable?
        var timerStopped = false
        var stopped = false

        var isEmpty: Bool { encoded?.isEmpty ?? queue.isEmpty }
    }

    public let limits: Limits
    public let counters: TracingCounters
    private let exporter: any SpanExporter
    /// `exporter`, when it sends OTLP protobuf: then spans are written as they end.
    private let encodingExporter: OTLPHTTPExporter?
    private let scheduler: any Scheduler
    /// Inline, a spin lock: every span's end takes it to write the span into its batch (a few
    /// hundred bytes, no call out), where a `Locked`'s mutex, in a box of its own, cost about 60
    /// instructions a span to take and give back (`UpstreamSpan.end(status:)` 48,240 -> 46,446 a
    /// `/users` request at 100 %). The export's turns under it are as short.
    private let lock = SpinLock()
    @exclusivity(unchecked) private var state: State

    /// Starts the schedule-delay timer on `scheduler` (the tests give a `TestScheduler`).
    public init(exporter: any SpanExporter, limits: Limits = Limits(), counters: TracingCounters, scheduler: any Scheduler) {
        self.exporter = exporter
        self.limits = limits
        self.counters = counters
        self.scheduler = scheduler
        encodingExporter = (exporter as? OTLPHTTPExporter).flatMap { $0.settings.wireProtocol == .protobuf ? $0 : nil }
        var initial = State()
        if encodingExporter != nil {
            initial.encoded = EncodedSpanQueue(batchSize: limits.maxExportBatchSize, maxQueueSize: limits.maxQueueSize)
        }
        state = initial
        armTimer()
    }

    private func withLock<Result>(_ body: (inout State) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&state)
    }

    /// `withLock`, `handed` moved into `body` (not copied into it and released here).
    private func withLock<Handed, Result>(handing handed: consuming Handed, _ body: (inout State, consuming Handed) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&state, handed)
    }

    /// Spans waiting in the queue.
    public var queuedCount: Int { withLock { $0.encoded?.count ?? $0.queue.count } }

    /// Whether ending spans are written into the batches as they end (`stream`).
    var encodesOnEnd: Bool { encodingExporter != nil }

    /// A span ending, its whole `ScopeSpans.spans` field written by `writeField` into its batch's
    /// buffer under the lock (a few hundred bytes, no call out): only when `encodesOnEnd`. A
    /// span counted first writes the field at once (`SizedSpan`); any other, its message inside
    /// `OTLPProtobufEncoding.spanField`.
    func stream(_ writeField: (inout ProtobufWriter) -> Void) {
        let (accepted, stopped, batchReady) = withLock { state -> (Bool, Bool, Bool) in
            guard !state.stopped else { return (false, true, false) }
            guard state.encoded!.append(writeField) else { return (false, false, false) }
            // Once, as the queue reaches a batch (as `onEnd`'s records do): asked of the first batch,
            // every span ending until the export took it scheduled one more.
            return (true, false, state.encoded!.count == limits.maxExportBatchSize && !state.exporting)
        }
        guard accepted else { return counters.spansDropped(1, stopped ? .shutdown : .queueFull) }
        if batchReady { scheduler.schedule { [self] in exportNext(force: false) } }
    }

    /// The bodies the waiting batches of written spans would be sent as, first first (the
    /// tests hold them to what the record encoder writes of the same spans).
    func waitingBodies() -> [[UInt8]] {
        guard let encodingExporter else { return [] }
        return withLock { state in
            (state.encoded?.waiting ?? []).map { batch in batch.spans.withBytes { encodingExporter.body(ofEncoded: $0) } }
        }
    }

    public func onEnd(_ span: consuming SpanRecord) {
        if encodesOnEnd {
            let record = span
            return withUnsafePointer(to: record) { record in stream { OTLPProtobufEncoding.spanField(&$0) { OTLPProtobufEncoding.write(record, to: &$0) } } }
        }
        // Moved into the queue, not copied into it and released here.
        let (accepted, batchReady) = withLock(handing: span) { state, span -> (Bool, Bool) in
            guard !state.stopped, state.queue.count < limits.maxQueueSize else { return (false, false) }
            state.queue.append(span)
            return (true, state.queue.count == limits.maxExportBatchSize && !state.exporting)
        }
        guard accepted else {
            counters.spansDropped(1, withLock { $0.stopped } ? .shutdown : .queueFull)
            return
        }
        if batchReady { scheduler.schedule { [self] in exportNext(force: false) } }
    }

    public func forceFlush(completion: @escaping @Sendable () -> Void) {
        let done = withLock { state -> Bool in
            guard !state.isEmpty || state.exporting else { return true }
            state.flushWaiters.append(completion)
            return false
        }
        if done { return completion() }
        scheduler.schedule { [self] in exportNext(force: true) }
    }

    public func shutdown(completion: @escaping @Sendable () -> Void) {
        let timer = withLock { state -> Disposable? in
            // Spans ending from now on are dropped; those queued still leave.
            state.stopped = true
            state.timerStopped = true
            defer { state.timer = nil }
            return state.timer
        }
        timer?.dispose()
        forceFlush { [self] in
            let left = withLock { state -> Int in
                defer { state.queue = [] }
                return state.queue.count + (state.encoded?.removeAll() ?? 0)
            }
            counters.spansDropped(left, .shutdown)
            completion()
        }
    }

    /// The schedule-delay timer: one repeating timer on a scheduler that offers it, armed once;
    /// elsewhere (a `TestScheduler`) a one-shot timer armed again as it fires, the slow twin
    /// (the tests hold the two to the same exports). Armed again per tick, a `QueueScheduler`
    /// made, armed and tore down a Dispatch timer each time (about 5 k instructions a tick:
    /// under callgrind the 100 ms delay ticks about once a `/users` request).
    private func armTimer() {
        if let repeating = scheduler as? any RepeatingScheduler {
            return keep(repeating.scheduleRepeating(after: limits.scheduleDelay, every: limits.scheduleDelay) { [self] in exportNext(force: true) })
        }
        armOneShotTimer()
    }

    private func armOneShotTimer() {
        keep(scheduler.schedule(after: limits.scheduleDelay) { [self] in
            exportNext(force: true)
            armOneShotTimer()
        })
    }

    /// `timer` kept for `shutdown` to dispose, or disposed at once when that has run.
    private func keep(_ timer: Disposable) {
        let kept = withLock { state -> Bool in
            guard !state.timerStopped else { return false }
            state.timer = timer
            return true
        }
        if !kept { timer.dispose() }
    }

    /// Takes the next batch unless one is in flight. `force`: a batch smaller than full goes too
    /// (the timer, a flush); otherwise only a full batch.
    private func exportNext(force: Bool) {
        if let encodingExporter { return exportNextEncoded(force: force, to: encodingExporter) }
        let batch = withLock { state -> [SpanRecord]? in
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
        exporter.export(batch) { [self] delivered in exported(batch.count, delivered: delivered) }
    }

    /// `exportNext` of written spans: the next batch's body is framed around its buffer, lent to
    /// the request as it lies (`OTLPHTTPExporter.export(encoded:completion:)`); a buffer the
    /// exporter copied (to compress it) goes back to the queue for a later batch.
    private func exportNextEncoded(force: Bool, to exporter: OTLPHTTPExporter) {
        let batch = withLock { state -> EncodedSpanQueue.Batch? in
            let flushing = !state.flushWaiters.isEmpty
            guard !state.exporting, !state.isEmpty,
                force || flushing || state.encoded!.firstCount >= limits.maxExportBatchSize
            else { return nil }
            state.exporting = true
            return state.encoded!.removeFirst()
        }
        guard let batch else { return finishFlushIfDone() }
        let count = batch.count
        let returned = exporter.export(encoded: batch.spans) { [self] delivered in exported(count, delivered: delivered) }
        if let returned { withLock { $0.encoded!.recycle(returned) } }
    }

    /// An export of `count` spans ended: counted, and the next one may go.
    private func exported(_ count: Int, delivered: Bool) {
        if delivered {
            counters.spansExported(count)
        } else {
            counters.exportFailed()
            counters.spansDropped(count, .exportFailed)
        }
        withLock { $0.exporting = false }
        scheduler.schedule { [self] in exportNext(force: false) }
    }

    /// Runs the flush waiters once nothing is queued or in flight.
    private func finishFlushIfDone() {
        let waiters = withLock { state -> [@Sendable () -> Void] in
            guard state.isEmpty, !state.exporting else { return [] }
            defer { state.flushWaiters = [] }
            return state.flushWaiters
        }
        for waiter in waiters { waiter() }
    }
}
