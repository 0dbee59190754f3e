// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency

/// A per-client rate: `count` units per `period`, with up to `burst` taken at once
/// (`--client-upstream-rate 120/m`, `--client-request-rate 20/s`).
public struct RatePolicy: Sendable, Equatable {
    /// Names the policy in the `RateLimit-Policy` and `RateLimit` fields.
    public var name: String
    public let count: Int
    public let period: Duration
    public var burst: Int
    /// `period` in seconds, kept: `Duration.components` costs 128-bit arithmetic on every check.
    let periodSeconds: Double

    public init(name: String, count: Int, period: Duration, burst: Int? = nil) {
        self.name = name
        self.count = count
        self.period = period
        self.burst = burst ?? count
        periodSeconds = period.seconds
    }

    /// Parses `120/m`, `20/s`, `5000/h` (a positive count, then s, m or h).
    public static func parse(_ text: String, name: String) -> RatePolicy? {
        let parts = text.trimmingWhitespace().split(separator: "/")
        guard parts.count == 2, let count = Int(parts[0]), count > 0, count <= 1_000_000 else { return nil }
        let periods: [String: Duration] = ["s": .seconds(1), "m": .seconds(60), "h": .seconds(3600)]
        guard let period = periods[parts[1].lowercased()] else { return nil }
        return RatePolicy(name: name, count: count, period: period)
    }

    /// Seconds one unit takes to come back (GCRA's emission interval).
    var interval: Double { periodSeconds / Double(count) }
    /// Seconds of debt a full burst stands for (GCRA's tolerance plus one interval).
    var capacity: Double { interval * Double(burst) }

    /// Whether one more unit fits on a debt of `level` seconds (the slack absorbs rounding).
    func admits(debt level: Double) -> Bool {
        level + interval <= capacity + 1e-9
    }

    /// Whether `cost` units may start on a debt of `level` seconds: when they fit within the
    /// burst, or, costing more than a whole burst, when the budget is whole.
    func admits(debt level: Double, cost: Int) -> Bool {
        level + footprint(cost) <= capacity + 1e-9
    }

    /// The debt `cost` units must find room for: a cost beyond the burst needs the whole of it.
    func footprint(_ cost: Int) -> Double {
        Double(min(max(cost, 0), burst)) * interval
    }
}
