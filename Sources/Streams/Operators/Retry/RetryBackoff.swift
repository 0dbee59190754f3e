// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

// `pow` comes from the C library; Streams needs nothing from Foundation.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How `retry(_:backoff:scheduler:)` waits between attempts: exponential
/// backoff with jitter, a predicate choosing which errors are retried, an
/// optional per-error override (for a server's `Retry-After`), and a hook told
/// of each retry before its wait begins (for retry events and metrics).
///
///     let backoff = RetryBackoff(
///         initialDelay: .milliseconds(100), multiplier: 2, maxDelay: .seconds(5), jitter: 0.5,
///         retryIf: { ($0 as? UpstreamError)?.isRetryable ?? false },
///         delayOverride: { error, _ in (error as? any RetryAfterError)?.retryAfter },
///         onRetry: { retry in metrics.retried(after: retry.error) }
///     )
///
/// `honouringRetryAfter(…)` is this with the override reading a `RetryAfterError`'s wait.
///
/// Retry number `n` (1-based) waits `min(initialDelay × multiplier^(n-1), maxDelay)`,
/// shortened by up to `jitter` of itself at random (0 = exact, 1 = "full jitter").
public struct RetryBackoff: Sendable {
    /// The wait before the first retry.
    public var initialDelay: Duration
    /// Each wait is the previous one times this (exponential backoff).
    public var multiplier: Double
    /// The longest wait, however many retries came before.
    public var maxDelay: Duration
    /// Fraction of each delay randomised away, in 0...1.
    public var jitter: Double
    /// Whether an error is worth retrying; others are delivered at once.
    public var retryIf: @Sendable (Error) -> Bool
    /// A delay that replaces the computed one for this error and retry number, when not nil (cut
    /// to a century: a server may name any wait).
    public var delayOverride: @Sendable (_ error: Error, _ retry: Int) -> Duration?
    /// A uniform random number in 0..<1; replace it to make jitter deterministic in tests.
    public var random: @Sendable () -> Double
    /// Told of each retry once it is decided, before its wait starts: which retry it is,
    /// the error that caused it and how long the wait will be.
    public var onRetry: @Sendable (Retry) -> Void
    /// The longest wait allowed when a retry is decided, or nil for no limit: a computed or
    /// overridden wait beyond it is cut to it (never below zero). A caller bounding all its
    /// attempts by one deadline returns the time left, so that no back-off waits past it and
    /// the deadline needs no timer of its own.
    public var waitLimit: (@Sendable () -> Duration)?
    /// The most one subscription of `retry` waits in all, its retries' waits added up, or nil for
    /// no limit. A retry whose wait would take the total past it is not made: the error is
    /// delivered then, rather than after waiting a server's `Retry-After` only in part.
    public var maxTotalWait: Duration?

    /// One retry as `onRetry` sees it.
    public struct Retry: Sendable {
        /// 1 for the first retry (the second attempt), 2 for the next, and so on.
        public let number: Int
        /// The error that caused this retry.
        public let error: any Error
        /// The wait before this retry.
        public let delay: Duration
    }

    /// A backoff policy; every parameter is described at its property.
    public init(
        initialDelay: Duration = .milliseconds(100),
        multiplier: Double = 2,
        maxDelay: Duration = .seconds(30),
        jitter: Double = 0.5,
        maxTotalWait: Duration? = nil,
        retryIf: @escaping @Sendable (Error) -> Bool = { _ in true },
        delayOverride: @escaping @Sendable (_ error: Error, _ retry: Int) -> Duration? = { _, _ in nil },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        onRetry: @escaping @Sendable (Retry) -> Void = { _ in }
    ) {
        self.maxTotalWait = maxTotalWait
        self.initialDelay = initialDelay
        self.multiplier = max(1, multiplier)
        self.maxDelay = maxDelay
        self.jitter = min(max(jitter, 0), 1)
        self.retryIf = retryIf
        self.delayOverride = delayOverride
        self.random = random
        self.onRetry = onRetry
    }

    /// Retries at once, every error: what plain `retry(_:)` does.
    public static let immediate = RetryBackoff(initialDelay: .zero, maxDelay: .zero, jitter: 0)

    /// The wait before retry number `retry` (1-based) after `error`, or nil when `error` is not
    /// retried. The retry operator asks this once per retry, so a non-nil answer is a retry
    /// decided: it is reported to `onRetry` before being returned. It is at most `waitLimit`'s answer.
    public func delay(beforeRetry retry: Int, after error: Error) -> Duration? {
        delay(beforeRetry: retry, after: error, waited: .zero)
    }

    /// The wait before retry number `retry` after `error` when the subscription's earlier retries
    /// waited `waited` in all: as `delay(beforeRetry:after:)`, and nil when the wait would take
    /// the total past `maxTotalWait`.
    public func delay(beforeRetry retry: Int, after error: Error, waited: Duration) -> Duration? {
        guard let delay = delay(beforeRetry: retry, after: error, waited: waited, limit: { waitLimit?() }) else { return nil }
        onRetry(Retry(number: retry, error: error, delay: delay))
        return delay
    }

    /// As `delay(beforeRetry:after:waited:)` with the wait limit read from `limit` (asked only for a
    /// retry the back-off allows) in place of `waitLimit`, and `onRetry` left to the caller: for a
    /// fused stage that keeps both per subscription in its own state (`GitHubClient`'s calls), where
    /// setting them on a copy of the back-off per call copied its closures (a retain and a release
    /// each).
    package func delay(beforeRetry retry: Int, after error: Error, waited: Duration, limit: () -> Duration?) -> Duration? {
        guard var delay = computedDelay(beforeRetry: retry, after: error) else { return nil }
        if let limit = limit() { delay = min(delay, max(limit, .zero)) }
        if let maxTotalWait, waited + delay > maxTotalWait { return nil }
        return delay
    }

    /// The longest wait ever scheduled, a century: a server may name any wait (a `Retry-After`
    /// of 10¹¹ seconds, a date in the year 9999), and schedulers count nanoseconds in 64 bits.
    static let longestWait = Duration.seconds(100 * 365 * 86_400)

    private func computedDelay(beforeRetry retry: Int, after error: Error) -> Duration? {
        guard retryIf(error) else { return nil }
        if let overridden = delayOverride(error, retry) { return min(max(overridden, .zero), Self.longestWait) }
        let growth = pow(multiplier, Double(max(0, retry - 1)))
        let exponential = growth.isFinite ? initialDelay * growth : maxDelay
        let capped = min(max(exponential, .zero), maxDelay)
        return capped * (1 - jitter * random())
    }
}
