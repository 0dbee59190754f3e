import NetCore

/// How a `RedisConnection` connects, times out and reconnects.
public struct RedisConfiguration: Sendable {
    public var url: RedisURL
    /// TCP connect plus TLS handshake plus AUTH/SELECT/PING.
    public var connectTimeout: Duration = .seconds(2)
    /// Default wait for one reply; a blocking command adds its own block time.
    public var commandTimeout: Duration = .seconds(2)
    /// First wait before reconnecting; doubles per failed attempt up to `maximumBackoff`.
    public var initialBackoff: Duration = .milliseconds(50)
    /// Kept at 500 ms so a feed resumes well within 1 s of Redis coming back.
    public var maximumBackoff: Duration = .milliseconds(500)
    public var limits = RESPLimits()
    /// For `rediss://`: an extra CA bundle (e.g. a test's self-signed certificate).
    public var trustedCAFile: String?

    public init(url: RedisURL) {
        self.url = url
    }

    /// The delay before reconnect attempt `attempt` (0-based), with ±20 % jitter so
    /// replicas that lost Redis together do not reconnect in lockstep.
    public func backoff(attempt: Int) -> Duration {
        let doublings = min(attempt, 20)
        let base = min(initialBackoff * (1 << doublings), maximumBackoff)
        return base * Double.random(in: 0.8...1.2)
    }
}
