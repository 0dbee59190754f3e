// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency

/// A token bucket for log lines: a burst of `burst` lines, then `perSecond`; what it holds back
/// is counted, and the next line let through says how many.
struct LogTokenBucket: Sendable {
    struct Rate: Sendable {
        let burst: Int
        let perSecond: Double
    }

    private var tokens: Double
    private var refilledAt: ContinuousClock.Instant
    private(set) var suppressed = 0

    init(_ rate: Rate, now: ContinuousClock.Instant) {
        tokens = Double(rate.burst)
        refilledAt = now
    }

    /// Whether a line may be written now; consumes a token when it may.
    mutating func take(_ rate: Rate, now: ContinuousClock.Instant) -> Bool {
        refill(rate, now: now)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }

    /// Counts a line held back (by this bucket or another), for the next line let through to report.
    mutating func holdBack() { suppressed += 1 }

    /// The lines held back since the last call, which starts the count again.
    mutating func takeSuppressed() -> Int {
        defer { suppressed = 0 }
        return suppressed
    }

    /// Full and owing no report: indistinguishable from a new bucket, so it may be forgotten.
    mutating func isIdle(_ rate: Rate, now: ContinuousClock.Instant) -> Bool {
        refill(rate, now: now)
        return suppressed == 0 && tokens >= Double(rate.burst)
    }

    private mutating func refill(_ rate: Rate, now: ContinuousClock.Instant) {
        guard now > refilledAt else { return }
        tokens = min(Double(rate.burst), tokens + (now - refilledAt).seconds * rate.perSecond)
        refilledAt = now
    }
}
