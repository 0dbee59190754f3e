// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import CoreMetrics
import StreamServiceConcurrency

/// The exporter's three counters, in the metrics backend (`/metrics`) and readable here (tests, benchmarks).
public final class TracingCounters: Sendable {
    public static let exportedName = "tracing_spans_exported_total"
    public static let droppedName = "tracing_spans_dropped_total"
    public static let failuresName = "tracing_export_failures_total"

    /// Why a span was dropped: the queue was full, or its batch was given up after retries.
    public enum DropReason: String, Sendable, CaseIterable {
        case queueFull = "queue_full"
        case exportFailed = "export_failed"
        case shutdown
    }

    public struct Totals: Sendable, Equatable {
        public var exported = 0
        public var dropped = 0
        public var failures = 0
    }

    private let exported: Counter
    private let dropped: [DropReason: Counter]
    private let failures: Counter
    private let values = Locked(Totals())

    public init(factory: any MetricsFactory = MetricsSystem.factory) {
        exported = Counter(label: Self.exportedName, factory: factory)
        // Every reason from the start, so a dashboard sees zeros rather than gaps.
        dropped = Dictionary(uniqueKeysWithValues: DropReason.allCases.map {
            ($0, Counter(label: Self.droppedName, dimensions: [("reason", $0.rawValue)], factory: factory))
        })
        failures = Counter(label: Self.failuresName, factory: factory)
        exported.increment(by: 0)
        failures.increment(by: 0)
        for counter in dropped.values { counter.increment(by: 0) }
    }

    /// What was counted so far.
    public var totals: Totals { values.withLock { $0 } }

    func spansExported(_ count: Int) {
        values.withLock { $0.exported += count }
        exported.increment(by: count)
    }

    func spansDropped(_ count: Int, _ reason: DropReason) {
        guard count > 0 else { return }
        values.withLock { $0.dropped += count }
        dropped[reason]?.increment(by: count)
    }

    func exportFailed() {
        values.withLock { $0.failures += 1 }
        failures.increment()
    }
}
