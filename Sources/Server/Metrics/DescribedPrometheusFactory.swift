// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import CoreMetrics
import Prometheus

/// swift-prometheus's `PrometheusMetricsFactory` plus each family's `# HELP` line.
///
/// `PrometheusMetricsFactory` registers every metric with an empty help text, and the
/// registry refuses (fatally) a family whose help differs between two registrations, so
/// help cannot be added beside it: this factory makes every metric through the registry
/// with its description's help, the same text each time. Buckets come from the wrapped
/// factory's per-label table; metrics nobody described get no `# HELP` line and the
/// default buckets, exactly as with `PrometheusMetricsFactory` alone.
public struct DescribedPrometheusFactory: MetricsFactory {
    public let registry: PrometheusCollectorRegistry
    private let base: PrometheusMetricsFactory
    private let help: [String: String]

    public init(registry: PrometheusCollectorRegistry, descriptions: [MetricDescription]) {
        var base = PrometheusMetricsFactory(registry: registry)
        for description in descriptions {
            if let buckets = description.buckets { base.durationHistogramBuckets[description.name] = buckets }
        }
        self.registry = registry
        self.base = base
        help = Dictionary(descriptions.map { ($0.name, $0.help) }) { first, _ in first }
    }

    /// The name with its help text; an undescribed name gets none, so no `# HELP` line
    /// (what `PrometheusMetricsFactory` does for every name).
    private func descriptor(_ label: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: label, unitName: "", helpText: help[label] ?? "")
    }

    public func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        registry.makeCounter(descriptor: descriptor(label), labels: dimensions)
    }

    public func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler {
        registry.makeCounter(descriptor: descriptor(label), labels: dimensions)
    }

    public func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        guard aggregate else { return registry.makeGauge(descriptor: descriptor(label), labels: dimensions) }
        let buckets = base.valueHistogramBuckets[label] ?? base.defaultValueHistogramBuckets
        return registry.makeValueHistogram(descriptor: descriptor(label), labels: dimensions, buckets: buckets)
    }

    public func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        registry.makeGauge(descriptor: descriptor(label), labels: dimensions)
    }

    public func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        let buckets = base.durationHistogramBuckets[label] ?? base.defaultDurationHistogramBuckets
        return registry.makeDurationHistogram(descriptor: descriptor(label), labels: dimensions, buckets: buckets)
    }

    public func destroyCounter(_ handler: any CounterHandler) { base.destroyCounter(handler) }
    public func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) { base.destroyFloatingPointCounter(handler) }
    public func destroyRecorder(_ handler: any RecorderHandler) { base.destroyRecorder(handler) }
    public func destroyMeter(_ handler: any MeterHandler) { base.destroyMeter(handler) }
    public func destroyTimer(_ handler: any TimerHandler) { base.destroyTimer(handler) }
}
