// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Domain
import HTTP
import Logging
import NetCore
import Redis
import Telemetry

/// The validated settings of `stream-service serve`.
///
/// Each value comes from its flag, else its environment variable, else the
/// default. An empty environment variable counts as unset (compose files often
/// declare `GITHUB_TOKEN=`); an empty flag value is validated like any other.
public struct ServiceConfiguration: Sendable, Equatable {
    public enum LogFormat: String, Sendable, CaseIterable { case json, text }

    /// PEM files for TLS; both or neither are given.
    public struct TLSFiles: Sendable, Equatable {
        public var certificate: String
        public var privateKey: String
    }

    public var host = "0.0.0.0"
    public var port = 8080
    /// nil = serve the embedded demo upstream in-process.
    public var upstream: URL?
    public var githubToken: String?
    public var demoLatency: Duration = .zero
    public var demoFailureRate = 0.0
    public var demoUsers = 1000
    /// Demo upstream API requests per hour; 0 = unlimited.
    public var demoRateLimit = 0
    /// Bytes the upstream response cache may hold; 0 disables it.
    public var upstreamCacheBytes = 64 << 20
    /// Identical upstream GETs in flight at once share one request; off for same-work benchmarks.
    public var upstreamSingleFlight = true
    /// Ask the upstream for gzip. It trades CPU for bytes: the demo's page of 30 users is 26.7 KB,
    /// 2.1 KB gzipped, and inflating it is a noticeable part of a `/users` request (the figure:
    /// Benchmarks/README.md). Worth it across a network, not from an upstream on this host.
    public var upstreamGzip = true
    public var headerTimeout: Duration = .seconds(10)
    public var idleTimeout: Duration = .seconds(60)
    /// Docker sends SIGKILL 10 s after SIGTERM, so draining must fit well inside that.
    public var shutdownTimeout: Duration = .seconds(8)
    public var bodyTimeout: Duration = .seconds(30)
    public var maxBodyBytes = 1 << 20
    public var maxConnections = 16_384
    /// Connections one client address may hold open; nil = no cap (clients behind a NAT share an address).
    public var maxConnectionsPerClient: Int?
    /// One upstream attempt; then it is retried.
    public var upstreamTimeout: Duration = .seconds(5)
    /// Attempts repeated after a retryable failure (see `RetryPolicy`).
    public var upstreamRetries = RetryPolicy().maxRetries
    /// One upstream call in all, retries and back-off included: most HTTP clients give up after
    /// about 10 s, so an answer later than that would go to nobody.
    public var upstreamDeadline: Duration = .seconds(10)
    public var sseHeartbeat: Duration = .seconds(15)
    /// Publish a `tick K` broadcast on `/events` this often; nil = never.
    public var eventsClock: Duration?
    /// `/events` messages kept for `Last-Event-ID` resume (see `eventsHistoryRange` for the cost).
    public var eventsHistory = 1000
    public var tls: TLSFiles?
    public var logLevel: Logger.Level = .info
    public var logFormat: LogFormat = .text
    /// Pages of these origins may read the answers (CORS); none by default.
    public var corsOrigins: CORSOrigins = .none
    /// The page's link to a traced run's trace (`{traceId}` replaced); nil = the id without a link.
    public var traceLinkTemplate: String?
    /// Replicas with the same Redis share `/events`; nil = the in-process feed only. With
    /// `redisSentinels`, only its credentials, database and TLS are used.
    public var redisURL: RedisURL?
    /// `--redis-sentinels` and `--redis-master-name`: Redis is the primary they name; nil = `redisURL`'s address.
    public var redisSentinels: RedisSentinelSettings?
    /// Names this replica in shared events; nil = hostname:port.
    public var replicaID: String?
    /// Bearer-token access control; nil = off (the demo stays one command).
    public var auth: AuthSettings?
    /// Proxies whose forwarding headers name the client; none by default.
    public var trustedProxies: TrustedProxies = .none
    /// Each client's budget of upstream requests; nil = unlimited (the demo's default).
    public var clientUpstreamRate: RatePolicy?
    /// Each client address's cap on requests to any route; nil = none.
    public var clientRequestRate: RatePolicy?
    /// Bits of an IPv6 client address the per-client limits tell clients apart by.
    public var rateLimitIPv6Prefix = ClientAddressKey.standard.ipv6PrefixLength
    /// Clients each per-client limit remembers at most (tests make it small).
    var rateLimitClients = LocalRateLimiter<AddressDebts>.defaultMaximumClients
    /// How long a shared budget's check waits for Redis before deciding alone (tests that show
    /// the sharing, not the timeout, make it long: a busy machine can take 100 ms to answer).
    var budgetRedisTimeout = UpstreamBudget.defaultRedisTimeout
    /// Upstream requests kept back from clients; nil = a tenth of the limit the upstream reports.
    public var upstreamReserve: Int?

    /// Whether the upstream reserve holds work back: when set with `--upstream-reserve`, or by
    /// default when a quota is really at stake — an operator's `--github-token`, or the embedded
    /// demo enforcing `--demo-rate-limit`. Anonymous use and a demo that never refuses keep
    /// their quota watched and reported only (a demo reports 5,000 it does not enforce).
    public var upstreamReserveHoldsBack: Bool {
        upstreamReserve != nil || githubToken != nil || (upstream == nil && demoRateLimit > 0)
    }
    /// HTTP/2 beside HTTP/1.1 (h2c with prior knowledge, h2 by ALPN).
    public var http2 = true
    /// HTTP/2 to the upstream: `auto` asks by ALPN over TLS (GitHub answers h2) and speaks
    /// HTTP/1.1 in cleartext; `prior-knowledge` speaks h2c in cleartext too; `off` HTTP/1.1 only.
    public var upstreamHTTP2 = HTTP2ClientSettings.Mode.auto
    /// Traces exported over OTLP/HTTP; nil = no endpoint or `OTEL_SDK_DISABLED=true`: nothing is bootstrapped.
    public var tracing: TracingSettings?

    public init() {}

    /// Resolves flags over environment over defaults, validating every value.
    public static func resolve(
        flags: [ConfigurationSetting: String],
        environment: [String: String]
    ) throws(ConfigurationError) -> ServiceConfiguration {
        let reader = SettingReader(flags: flags, environment: environment)
        var configuration = ServiceConfiguration()
        configuration.host = try reader.host(.host) ?? configuration.host
        configuration.port = try reader.integer(.port, in: 0...65_535) ?? configuration.port
        configuration.upstream = try reader.httpURL(.upstream)
        configuration.githubToken = reader.string(.githubToken)
        if let milliseconds = try reader.integer(.demoLatencyMs, in: 0...600_000) {
            configuration.demoLatency = .milliseconds(milliseconds)
        }
        configuration.demoFailureRate = try reader.fraction(.demoFailureRate) ?? configuration.demoFailureRate
        configuration.demoUsers = try reader.integer(.demoUsers, in: 1...10_000_000) ?? configuration.demoUsers
        configuration.demoRateLimit = try reader.integer(.demoRateLimit, in: 0...10_000_000) ?? configuration.demoRateLimit
        configuration.upstreamCacheBytes = try reader.integer(.upstreamCacheBytes, in: 0...(1 << 40)) ?? configuration.upstreamCacheBytes
        configuration.upstreamSingleFlight = try reader.choice(.upstreamSingleFlight, [("true", true), ("false", false)]) ?? configuration.upstreamSingleFlight
        configuration.upstreamGzip = try reader.choice(.upstreamGzip, [("true", true), ("false", false)]) ?? configuration.upstreamGzip
        configuration.headerTimeout = try reader.seconds(.headerTimeout, allowZero: false) ?? configuration.headerTimeout
        configuration.idleTimeout = try reader.seconds(.idleTimeout, allowZero: false) ?? configuration.idleTimeout
        configuration.shutdownTimeout = try reader.seconds(.shutdownTimeout, allowZero: true) ?? configuration.shutdownTimeout
        configuration.bodyTimeout = try reader.seconds(.bodyTimeout, allowZero: false) ?? configuration.bodyTimeout
        configuration.maxBodyBytes = try reader.integer(.maxBodyBytes, in: 0...(1 << 40)) ?? configuration.maxBodyBytes
        configuration.maxConnections = try reader.integer(.maxConnections, in: 1...1_000_000) ?? configuration.maxConnections
        if let perClient = try reader.integer(.maxConnectionsPerClient, in: 0...1_000_000), perClient > 0 {
            configuration.maxConnectionsPerClient = perClient
        }
        configuration.upstreamTimeout = try reader.seconds(.upstreamTimeout, allowZero: false) ?? configuration.upstreamTimeout
        configuration.upstreamRetries = try reader.integer(.upstreamRetries, in: 0...100) ?? configuration.upstreamRetries
        configuration.upstreamDeadline = try reader.seconds(.upstreamDeadline, allowZero: false) ?? configuration.upstreamDeadline
        configuration.sseHeartbeat = try reader.seconds(.sseHeartbeat, allowZero: false) ?? configuration.sseHeartbeat
        if let clock = try reader.seconds(.eventsClock, allowZero: true), clock > .zero {
            configuration.eventsClock = clock
        }
        configuration.eventsHistory = try reader.integer(.eventsHistory, in: eventsHistoryRange) ?? configuration.eventsHistory
        configuration.tls = try reader.tlsFiles()
        configuration.logLevel = try reader.choice(.logLevel, Logger.Level.allCases.map { ($0.rawValue, $0) }) ?? configuration.logLevel
        configuration.logFormat = try reader.choice(.logFormat, LogFormat.allCases.map { ($0.rawValue, $0) }) ?? configuration.logFormat
        configuration.corsOrigins = try reader.corsOrigins(.corsOrigins) ?? configuration.corsOrigins
        configuration.traceLinkTemplate = try reader.traceLinkTemplate(.traceLinkTemplate)
        configuration.redisURL = try reader.redisURL(.redisUrl)
        if let sentinels = try reader.redisSentinels(alongside: configuration.redisURL) {
            configuration.redisURL = sentinels.list.url
            configuration.redisSentinels = sentinels
        }
        configuration.replicaID = try reader.replicaID(.replicaId)
        configuration.auth = try reader.authSettings()
        if configuration.auth?.cookie != nil, configuration.corsOrigins == .any, let found = reader.raw(.corsOrigins) {
            // A cookie sent cross-origin needs the page's own origin echoed: * with a cookie would let every site read as the user.
            throw ConfigurationError(.corsOrigins, value: found.value, reason: "* cannot be used with \(ConfigurationSetting.authCookie.flag); list the origins whose pages may send the cookie", fromEnvironment: found.fromEnvironment)
        }
        configuration.trustedProxies = try reader.trustedProxies(.trustedProxies) ?? configuration.trustedProxies
        configuration.clientUpstreamRate = try reader.rate(.clientUpstreamRate, name: "upstream")
        if let burst = try reader.integer(.clientUpstreamBurst, in: 1...1_000_000) {
            guard configuration.clientUpstreamRate != nil else {
                throw ConfigurationError(.clientUpstreamBurst, value: nil, reason: "needs \(ConfigurationSetting.clientUpstreamRate.flag)")
            }
            configuration.clientUpstreamRate?.burst = burst
        }
        configuration.clientRequestRate = try reader.rate(.clientRequestRate, name: "requests")
        configuration.rateLimitIPv6Prefix = try reader.integer(.rateLimitIpv6Prefix, in: ClientAddressKey.ipv6PrefixLengths) ?? configuration.rateLimitIPv6Prefix
        configuration.upstreamReserve = try reader.integer(.upstreamReserve, in: 0...10_000_000)
        configuration.http2 = try reader.choice(.http2, [("on", true), ("off", false)]) ?? configuration.http2
        configuration.upstreamHTTP2 = try reader.choice(.upstreamHttp2, HTTP2ClientSettings.Mode.allCases.map { ($0.rawValue, $0) })
            ?? configuration.upstreamHTTP2
        configuration.tracing = try reader.tracing()
        return configuration
    }

    /// `--events-history`'s bounds. Each buffered event costs about 550 bytes: the feed's encoded
    /// message plus the hub's records of it (RSS of a debug build with one subscriber
    /// connected, after 3,000 `/users?limit=30` requests, 96 events each: 50,000 kept against
    /// 1,000 kept took 26.6 MB more, 543 bytes an event). So the default holds about 0.5 MB and
    /// the top of the range about 550 MB.
    public static let eventsHistoryRange = 1...1_000_000

    /// Reads `ProcessInfo`'s environment.
    public static func resolve(flags: [ConfigurationSetting: String]) throws(ConfigurationError) -> ServiceConfiguration {
        try resolve(flags: flags, environment: ProcessInfo.processInfo.environment)
    }
}
