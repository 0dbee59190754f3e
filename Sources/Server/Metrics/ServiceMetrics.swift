// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import CoreMetrics
import Domain
import HTTP
import Prometheus
import StreamServiceConcurrency
import Streams
import Telemetry

/// The application's metrics backend: one Prometheus registry per `Application`,
/// the swift-metrics factory over it that the HTTP engine and the upstream client
/// emit through, the service's own SSE gauge, and the gauge sampled at scrape time.
///
/// Each `Application` gets its own registry and passes the factory explicitly rather
/// than through `MetricsSystem.bootstrap`, which a process may call only once: the
/// tests run dozens of applications in one process, each counting only its own
/// requests. `ServeCommand` bootstraps the global system with this same factory, so a
/// library that emits through `MetricsSystem` shows up at `/metrics` too.
public final class ServiceMetrics: Sendable {
    public static let sseSubscribersName = "sse_subscribers"
    public static let liveSubscriptionsName = "stream_subscriptions_live"

    /// The families this service exposes, with their `# HELP` text and histogram buckets.
    public static let descriptions = [
        MetricDescription(HTTPMetrics.requestsName, help: "HTTP requests answered, by method, route pattern and status."),
        MetricDescription(
            HTTPMetrics.durationName, help: "Time from a request's arrival to its last response byte, by route pattern.",
            buckets: HTTPMetrics.durationBuckets),
        MetricDescription(HTTPMetrics.connectionsName, help: "Client connections currently open."),
        MetricDescription(HTTPMetrics.rejectionsName, help: "Requests and connections the server answered itself with an error, by status and reason."),
        MetricDescription(HTTPMetrics.acceptPausesName, help: "Times accepting paused because accept() failed (descriptors exhausted)."),
        MetricDescription(HTTPMetrics.acceptPausedName, help: "1 while accepting is paused after accept() failed."),
        MetricDescription(HTTPProtocolMetrics.requestsName, help: "Answered requests by protocol (h1, h2)."),
        MetricDescription(HTTPProtocolMetrics.connectionsName, help: "Client connections currently open, by protocol (h1, h2)."),
        MetricDescription(HTTPProtocolMetrics.streamsOpenName, help: "HTTP/2 streams currently open."),
        MetricDescription(HTTPProtocolMetrics.resetsName, help: "HTTP/2 RST_STREAM frames, received from clients or sent to them."),
        MetricDescription(HTTPProtocolMetrics.goAwaysName, help: "HTTP/2 GOAWAY frames, received from clients or sent to them."),
        MetricDescription(HTTPProtocolMetrics.stallsName, help: "HTTP/2 responses that waited for the client to open its flow-control window."),
        MetricDescription(HTTPProtocolMetrics.limitsName, help: "HTTP/2 clients that ran into an abuse limit (floods, Rapid Reset, shut windows)."),
        MetricDescription(sseSubscribersName, help: "Server-Sent Events responses currently streaming."),
        MetricDescription(liveSubscriptionsName, help: "Stream subscriptions alive in the process (Streams leak check)."),
        MetricDescription(UpstreamMetrics.requestsName, help: "Upstream HTTP attempts by outcome."),
        MetricDescription(UpstreamMetrics.retriesName, help: "Upstream attempts repeated after a retryable failure."),
        MetricDescription(UpstreamMetrics.durationName, help: "Duration of upstream attempts.", buckets: UpstreamMetrics.durationBuckets),
        MetricDescription(UpstreamMetrics.inFlightName, help: "Upstream requests currently waiting for an answer."),
        MetricDescription(UpstreamMetrics.cacheHitsName, help: "Upstream answers served from the response cache after a 304."),
        MetricDescription(UpstreamMetrics.cacheMissesName, help: "Upstream GETs sent without a cached answer."),
        MetricDescription(UpstreamMetrics.cacheRevalidationsName, help: "Conditional upstream GETs sent for a cached answer."),
        MetricDescription(UpstreamMetrics.coalescedName, help: "Upstream GETs that joined an identical request in flight."),
        MetricDescription(TracingCounters.exportedName, help: "Spans the OTLP collector accepted."),
        MetricDescription(TracingCounters.droppedName, help: "Spans never exported, by reason (queue_full: the collector was slow or away; export_failed: retries ran out; shutdown)."),
        MetricDescription(TracingCounters.failuresName, help: "OTLP export requests given up after their retries."),
    ] + SharedFeedMetrics.descriptions + AccessControl.descriptions + QuotaReport.descriptions

    public let registry: PrometheusCollectorRegistry
    public let factory: DescribedPrometheusFactory
    public let http: HTTPMetrics
    /// Server-Sent Events responses currently streaming (counted by `EventStreamResponder`).
    public let sseSubscribers: Meter
    private let liveSubscriptions: Meter
    /// Reads of state kept elsewhere (e.g. the Redis connections), run before every scrape.
    private let samplers = Locked<[@Sendable () -> Void]>([])

    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        factory = DescribedPrometheusFactory(registry: registry, descriptions: Self.descriptions)
        http = HTTPMetrics(factory: factory)
        sseSubscribers = Meter(label: Self.sseSubscribersName, factory: factory)
        sseSubscribers.set(0)
        liveSubscriptions = Meter(label: Self.liveSubscriptionsName, factory: factory)
    }

    /// Runs `sample` before every scrape, to copy state kept elsewhere into this registry's metrics.
    func sampleAtScrape(_ sample: @escaping @Sendable () -> Void) {
        samplers.withLock { $0.append(sample) }
    }

    /// A new upstream client's metrics, in this registry.
    public func upstream() -> UpstreamMetrics {
        UpstreamMetrics(factory: factory)
    }

    /// The whole `/metrics` page in Prometheus text format, after reading the gauges
    /// that live elsewhere (Streams counts its own live subscriptions).
    public func scrape() -> [UInt8] {
        liveSubscriptions.set(StreamDiagnostics.liveSubscriptions)
        for sample in samplers.withLock({ $0 }) { sample() }
        return registry.emitToBuffer()
    }
}
