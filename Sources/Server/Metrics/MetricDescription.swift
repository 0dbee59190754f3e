// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// What swift-metrics cannot carry from the code that emits a metric to the backend
/// that exposes it: the `# HELP` text and, for a timer, its histogram buckets.
public struct MetricDescription: Sendable {
    public let name: String
    public let help: String
    /// Upper bounds for a timer's histogram; nil for counters and meters.
    public let buckets: [Duration]?

    public init(_ name: String, help: String, buckets: [Duration]? = nil) {
        self.name = name
        self.help = help
        self.buckets = buckets
    }
}
