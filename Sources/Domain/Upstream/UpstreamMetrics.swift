// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import CoreMetrics

/// The upstream client's metrics, emitted through swift-metrics: the application
/// picks the backend (the service serves them from a Prometheus registry at `/metrics`),
/// and a library user gets whatever `MetricsSystem` was bootstrapped with.
///
/// Every handle is made once, here, so the per-attempt cost is the backend's
/// increment, not a lookup by name and labels.
public final class UpstreamMetrics: Sendable {
    public enum Outcome: String, Sendable, CaseIterable {
        case success, clientError = "client_error", serverError = "server_error"
        case rateLimited = "rate_limited", timeout, connectionError = "connection_error", cancelled
    }

    /// The metric names, for backends that describe them (`# HELP`, buckets).
    public static let requestsName = "upstream_requests_total"
    public static let retriesName = "upstream_retries_total"
    public static let durationName = "upstream_request_duration_seconds"
    public static let inFlightName = "upstream_in_flight"
    /// What the response cache and single flight saved.
    public static let cacheHitsName = "upstream_cache_hits_total"
    public static let cacheMissesName = "upstream_cache_misses_total"
    public static let cacheRevalidationsName = "upstream_cache_revalidations_total"
    public static let coalescedName = "upstream_coalesced_requests_total"

    /// Upper bounds of the duration histogram: 5 ms to 10 s, the range of an upstream
    /// call between a warm keep-alive hit and the client's timeout.
    public static let durationBuckets: [Duration] = [
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
        .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
    ]

    /// One counter per outcome, in `outcomes` order: found by the outcome's position rather
    /// than hashed by its name (the figure: Benchmarks/README.md).
    private let requests: [Counter]
    private static let outcomes = Outcome.allCases
    private let retries: Counter
    private let duration: Timer
    private let inFlight: Meter
    private let cacheHits: Counter
    private let cacheMisses: Counter
    private let cacheRevalidations: Counter
    private let coalescedRequests: Counter

    /// Makes the handles from `factory`; the default is the process-wide `MetricsSystem`,
    /// so bootstrap it before creating clients.
    public init(factory: any MetricsFactory = MetricsSystem.factory) {
        // All seven outcomes exist from the start, so a dashboard sees zeros rather than gaps.
        requests = Self.outcomes.map { outcome in
            Counter(label: Self.requestsName, dimensions: [("outcome", outcome.rawValue)], factory: factory)
        }
        retries = Counter(label: Self.retriesName, factory: factory)
        duration = Timer(label: Self.durationName, factory: factory)
        inFlight = Meter(label: Self.inFlightName, factory: factory)
        inFlight.set(0)
        cacheHits = Counter(label: Self.cacheHitsName, factory: factory)
        cacheMisses = Counter(label: Self.cacheMissesName, factory: factory)
        cacheRevalidations = Counter(label: Self.cacheRevalidationsName, factory: factory)
        coalescedRequests = Counter(label: Self.coalescedName, factory: factory)
    }

    func attemptStarted() { inFlight.increment() }

    func attemptFinished(_ outcome: Outcome, seconds: Double) {
        inFlight.decrement()
        requests[Self.outcomes.firstIndex(of: outcome)!].increment()
        duration.recordNanoseconds(Int64(seconds * 1e9))
    }

    func retried() { retries.increment() }

    /// An answer served from the cache after a 304.
    func cacheHit() { cacheHits.increment() }
    /// A GET sent without a cached answer.
    func cacheMissed() { cacheMisses.increment() }
    /// A conditional GET sent for a cached answer.
    func cacheRevalidated() { cacheRevalidations.increment() }
    /// A GET that joined an identical one in flight.
    func coalesced() { coalescedRequests.increment() }
}
