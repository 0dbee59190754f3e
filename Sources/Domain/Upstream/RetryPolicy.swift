/// When and how long to wait before trying an upstream call again: exponential backoff
/// with jitter for retryable failures, honouring a server's `Retry-After`.
public struct RetryPolicy: Sendable, Equatable {
    /// Additional attempts after the first one. Six rides out a 30 % failure rate: a call
    /// then fails for good with probability 0.3⁷ ≈ 0.02 %, so a page of ten users with
    /// avatars (eleven calls) still succeeds 99.7 % of the time.
    public var maxRetries: Int
    public var baseDelay: Duration
    public var maxDelay: Duration
    /// Fraction of the backoff randomised away (0 = none, 1 = "full jitter").
    public var jitter: Double
    /// A `Retry-After` longer than this is not waited for: the failure is reported instead.
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

    /// The wait before retry number `retry` (1-based) after `error`, or nil to give up.
    /// `unitRandom` in [0, 1) supplies the jitter, so tests can pin it.
    public func delay(beforeRetry retry: Int, after error: UpstreamError, unitRandom: Double) -> Duration? {
        guard retry <= maxRetries, error.isRetryable else { return nil }
        if let seconds = error.retryAfterSeconds {
            let requested = Duration.seconds(seconds)
            return requested <= maxRetryAfter ? requested : nil
        }
        let exponential = baseDelay * (1 << min(retry - 1, 20))
        let capped = min(exponential, maxDelay)
        return capped * (1 - jitter * unitRandom)
    }
}
