// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP

/// When an OTLP export is tried again (https://opentelemetry.io/docs/specs/otlp/#otlphttp-throttling):
/// after 429, 502, 503 and 504, a connection failure or a timeout, with exponential back-off, or
/// after the server's `Retry-After` (delta-seconds) when it gives one; never after other answers.
public struct ExportRetry: Sendable, Equatable {
    /// Attempts per batch, the first included.
    public var maxAttempts = 5
    /// Before the second attempt; doubled for each next one, up to `maxBackoff`.
    public var initialBackoff: Duration = .seconds(1)
    public var maxBackoff: Duration = .seconds(16)
    /// A longer `Retry-After` gives the batch up (its spans are dropped and counted) rather
    /// than holding the one export slot while the queue fills.
    public var maxRetryAfter: Duration = .seconds(60)

    public init() {}

    /// What ended an attempt.
    public enum Outcome: Sendable, Equatable {
        case answered(status: Int, retryAfter: String?)
        /// No answer: the connection failed or the attempt timed out.
        case noAnswer
    }

    public enum Decision: Sendable, Equatable {
        case delivered
        case retry(after: Duration)
        case giveUp
    }

    /// The decision after attempt `attempt` (1 = the first) ended with `outcome`. The back-off is
    /// the exponential one; `jitter` (0…1, the share of it taken off) spreads replicas out.
    public func decide(after attempt: Int, _ outcome: Outcome, jitter: Double = 0) -> Decision {
        let retryAfter: String?
        switch outcome {
        case .answered(let status, _) where (200..<300).contains(status): return .delivered
        case .answered(let status, let header) where [429, 502, 503, 504].contains(status): retryAfter = header
        case .answered: return .giveUp
        case .noAnswer: retryAfter = nil
        }
        guard attempt < maxAttempts else { return .giveUp }
        // The HTTP library's one `Retry-After` reader; only its delta-seconds form is waited here,
        // a date falls back to the back-off.
        if let retryAfter, case .seconds(let seconds)? = RetryAfter(retryAfter) {
            let delay = Duration.seconds(seconds)
            return delay <= maxRetryAfter ? .retry(after: delay) : .giveUp
        }
        var backoff = initialBackoff
        for _ in 1..<attempt where backoff < maxBackoff { backoff *= 2 }
        backoff = min(backoff, maxBackoff)
        return .retry(after: backoff - backoff * min(max(jitter, 0), 1) * 0.5)
    }
}
