// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Streams

/// When and how long to wait before trying an upstream call again: exponential backoff
/// with jitter for retryable failures, honouring a server's `Retry-After` when it is short.
public struct RetryPolicy: Sendable, Equatable {
    /// Additional attempts after the first one. Six rides out a 30 % failure rate: a call
    /// then fails for good with probability 0.3⁷ ≈ 0.02 %, so a page of ten users with
    /// avatars (eleven calls) still succeeds 99.7 % of the time.
    public var maxRetries: Int
    public var baseDelay: Duration
    public var maxDelay: Duration
    /// Fraction of the backoff randomised away (0 = none, 1 = "full jitter").
    public var jitter: Double
    /// A server-named wait (`Retry-After`, a rate-limit reset) longer than this is not
    /// waited for inside the request: the failure is reported (503 + `Retry-After` for a
    /// rate limit) so the client, not a held connection, does the waiting. 5 s keeps a
    /// retried request well inside the 10 s most HTTP clients give up after.
    public var maxRetryAfter: Duration

    public init(
        maxRetries: Int = 6, baseDelay: Duration = .milliseconds(25), maxDelay: Duration = .seconds(1),
        jitter: Double = 0.5, maxRetryAfter: Duration = .seconds(5)
    ) {
        self.maxRetries = maxRetries
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.jitter = min(max(jitter, 0), 1)
        self.maxRetryAfter = maxRetryAfter
    }

    public static let none = RetryPolicy(maxRetries: 0)

    /// Whether `error` is retried at all under this policy.
    public func retries(_ error: UpstreamError) -> Bool {
        guard error.isRetryable else { return false }
        guard let seconds = error.retryAfterSeconds else { return true }
        return .seconds(seconds) <= maxRetryAfter
    }

    /// This policy in the words of `retry(_:backoff:scheduler:)`: errors are classified
    /// with `UpstreamError(classifying:)`, a server-named wait replaces the backoff (Streams'
    /// `honouringRetryAfter`, reading `UpstreamError.retryAfter`), and `onRetry` hears of each
    /// retry. `random` supplies the jitter, so tests can pin it. No total-wait bound here: the
    /// call's deadline bounds the waits (`UpstreamCall`).
    public func backoff(
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        onRetry: @escaping @Sendable (RetryBackoff.Retry) -> Void = { _ in }
    ) -> RetryBackoff {
        .honouringRetryAfter(
            initialDelay: baseDelay, multiplier: 2, maxDelay: maxDelay, jitter: jitter, maxTotalWait: nil,
            retryIf: { [self] error in retries(UpstreamError(classifying: error)) },
            random: random, onRetry: onRetry)
    }
}
