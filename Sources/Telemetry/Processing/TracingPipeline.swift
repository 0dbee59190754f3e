// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import CoreMetrics
import HTTP
import StreamServiceConcurrency
import Streams

/// The tracer, batch processor and OTLP exporter that `TracingSettings` describe, put together:
/// what a service starts at boot (then `TracingSystem.install(pipeline.tracer)`) and shuts down
/// last, flushing what is queued.
public final class TracingPipeline: Sendable {
    public let settings: TracingSettings
    public let tracer: OTelTracer
    public let processor: BatchSpanProcessor
    public let exporter: OTLPHTTPExporter
    public let counters: TracingCounters
    private let scheduler: any Scheduler

    /// Exports from a serial queue of its own (never a request's thread) over an `HTTPClient` of
    /// its own; counters in `factory`.
    public convenience init(settings: TracingSettings, factory: any MetricsFactory = MetricsSystem.factory) {
        let scheduler = QueueScheduler(label: "stream-service.otlp-export")
        // Two connections: one export at a time, and one spare while the other is being closed.
        let client = HTTPClient(connectTimeout: settings.timeout, maxConnectionsPerOrigin: 2, maxIdlePerOrigin: 1)
        self.init(settings: settings, counters: TracingCounters(factory: factory), client: client, scheduler: scheduler)
    }

    /// The parts given: the tests pass a `TestScheduler` for the batch delay and the back-off.
    public init(settings: TracingSettings, counters: TracingCounters, client: HTTPClient, scheduler: any Scheduler, retry: ExportRetry = ExportRetry()) {
        self.settings = settings
        self.counters = counters
        self.scheduler = scheduler
        exporter = OTLPHTTPExporter(settings: settings, client: client, scheduler: scheduler, retry: retry)
        processor = BatchSpanProcessor(exporter: exporter, limits: settings.limits, counters: counters, scheduler: scheduler)
        tracer = OTelTracer(sampler: settings.sampler, processor: processor)
    }

    /// Flushes and stops the processor; `completion` runs once that is done or `deadline` has
    /// passed, whichever comes first (a collector that is away must not hold a shutdown).
    public func shutdown(deadline: Duration, completion: @escaping @Sendable () -> Void) {
        let once = OnceFlag()
        let timer = scheduler.schedule(after: deadline) { if once.set() { completion() } }
        processor.shutdown {
            timer.dispose()
            if once.set() { completion() }
        }
    }
}
