// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore

/// How a `RedisConnection` finds its server, connects, times out and reconnects.
public struct RedisConfiguration: Sendable {
    /// Credentials, database and TLS; also the address, unless `sentinel` names the primary.
    public var url: RedisURL
    /// When set, the address is the primary these sentinels name, asked before every
    /// (re)connection and followed on `+switch-master`; `url`'s host and port are not used.
    public var sentinel: RedisSentinel?
    /// Leave a node that says (ROLE) or shows (a READONLY reply) it is a replica, and look for
    /// the primary again; off only for connections to sentinels.
    public var requiresPrimary = true
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

    public init(url: RedisURL, sentinel: RedisSentinel? = nil) {
        self.url = url
        self.sentinel = sentinel
    }

    /// Where this configuration connects, for logs (the password masked).
    public var target: String {
        guard let sentinel else { return url.description }
        let database = url.database == 0 ? "" : " database \(url.database)"
        return "the primary \(sentinel.summary)\(url.usesTLS ? " (TLS)" : "")\(database)"
    }

    /// The delay before reconnect attempt `attempt` (0-based), with ±20 % jitter so
    /// replicas that lost Redis together do not reconnect in lockstep.
    public func backoff(attempt: Int) -> Duration {
        let doublings = min(attempt, 20)
        let base = min(initialBackoff * (1 << doublings), maximumBackoff)
        return base * Double.random(in: 0.8...1.2)
    }
}
