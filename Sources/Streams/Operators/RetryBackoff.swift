// `pow` comes from the C library; Streams needs nothing from Foundation.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How `retry(_:backoff:scheduler:)` waits between attempts: exponential
/// backoff with jitter, a predicate choosing which errors are retried, and an
/// optional per-error override (for a server's `Retry-After`).
///
///     let backoff = RetryBackoff(
///         initialDelay: .milliseconds(100), multiplier: 2, maxDelay: .seconds(5), jitter: 0.5,
///         retryIf: { ($0 as? UpstreamError)?.isRetryable ?? false },
///         delayOverride: { error, _ in (error as? UpstreamError)?.retryAfter }
///     )
///
/// Retry number `n` (1-based) waits `min(initialDelay × multiplier^(n-1), maxDelay)`,
/// shortened by up to `jitter` of itself at random (0 = exact, 1 = "full jitter").
public struct RetryBackoff: Sendable {
    public var initialDelay: Duration
    public var multiplier: Double
    public var maxDelay: Duration
    /// Fraction of each delay randomised away, in 0...1.
    public var jitter: Double
    /// Whether an error is worth retrying; others are delivered at once.
    public var retryIf: @Sendable (Error) -> Bool
    /// A delay that replaces the computed one for this error and retry number, when not nil.
    public var delayOverride: @Sendable (_ error: Error, _ retry: Int) -> Duration?
    /// A uniform random number in 0..<1; replace it to make jitter deterministic in tests.
    public var random: @Sendable () -> Double

    public init(
        initialDelay: Duration = .milliseconds(100),
        multiplier: Double = 2,
        maxDelay: Duration = .seconds(30),
        jitter: Double = 0.5,
        retryIf: @escaping @Sendable (Error) -> Bool = { _ in true },
        delayOverride: @escaping @Sendable (_ error: Error, _ retry: Int) -> Duration? = { _, _ in nil },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.initialDelay = initialDelay
        self.multiplier = max(1, multiplier)
        self.maxDelay = maxDelay
        self.jitter = min(max(jitter, 0), 1)
        self.retryIf = retryIf
        self.delayOverride = delayOverride
        self.random = random
    }

    /// Retries at once, every error: what plain `retry(_:)` does.
    public static let immediate = RetryBackoff(initialDelay: .zero, maxDelay: .zero, jitter: 0)

    /// The wait before retry number `retry` (1-based) after `error`, or nil when `error` is not retried.
    public func delay(beforeRetry retry: Int, after error: Error) -> Duration? {
        guard retryIf(error) else { return nil }
        if let overridden = delayOverride(error, retry) { return max(overridden, .zero) }
        let growth = pow(multiplier, Double(max(0, retry - 1)))
        let exponential = growth.isFinite ? initialDelay * growth : maxDelay
        let capped = min(max(exponential, .zero), maxDelay)
        return capped * (1 - jitter * random())
    }
}
