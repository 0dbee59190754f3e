// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Domain
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
    /// 2.1 KB gzipped, and inflating it cost 257,000 instructions, 7 % of a `/users` request
    /// (callgrind). Worth it across a network, not from an upstream on this host.
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

/// Looks a setting up (flag, then environment) and turns it into a typed value or a `ConfigurationError`.
private struct SettingReader {
    let flags: [ConfigurationSetting: String]
    let environment: [String: String]

    /// The raw value and whether it came from the environment.
    func raw(_ setting: ConfigurationSetting) -> (value: String, fromEnvironment: Bool)? {
        if let value = flags[setting] { return (value, false) }
        if let value = environment[setting.environmentVariable], !value.isEmpty { return (value, true) }
        return nil
    }

    func string(_ setting: ConfigurationSetting) -> String? {
        raw(setting)?.value
    }

    func failure(_ setting: ConfigurationSetting, _ found: (value: String, fromEnvironment: Bool), _ reason: String) -> ConfigurationError {
        ConfigurationError(setting, value: found.value, reason: reason, fromEnvironment: found.fromEnvironment)
    }

    func host(_ setting: ConfigurationSetting) throws(ConfigurationError) -> String? {
        guard let found = raw(setting) else { return nil }
        let host = found.value.trimmingWhitespace()
        let isAllowed = { (scalar: Unicode.Scalar) in scalar.isLetterMarkOrNumber || ".-:_[]%".unicodeScalars.contains(scalar) }
        guard !host.isEmpty, host.unicodeScalars.allSatisfy(isAllowed) else {
            throw failure(setting, found, "expected a host name or IP address, e.g. 0.0.0.0 or ::")
        }
        return host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }

    func integer(_ setting: ConfigurationSetting, in range: ClosedRange<Int>) throws(ConfigurationError) -> Int? {
        guard let found = raw(setting) else { return nil }
        guard let value = Int(found.value.trimmingWhitespace()), range.contains(value) else {
            throw failure(setting, found, "expected an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    func fraction(_ setting: ConfigurationSetting) throws(ConfigurationError) -> Double? {
        guard let found = raw(setting) else { return nil }
        guard let value = Double(found.value.trimmingWhitespace()), value >= 0, value <= 1 else {
            throw failure(setting, found, "expected a number from 0.0 to 1.0")
        }
        return value
    }

    func seconds(_ setting: ConfigurationSetting, allowZero: Bool) throws(ConfigurationError) -> Duration? {
        guard let found = raw(setting) else { return nil }
        let limit = 86_400.0
        guard let value = Double(found.value.trimmingWhitespace()), value.isFinite,
            allowZero ? value >= 0 : value > 0, value <= limit
        else {
            let range = allowZero ? "from 0 to \(Int(limit))" : "greater than 0, at most \(Int(limit))"
            throw failure(setting, found, "expected seconds \(range), e.g. 2.5")
        }
        return .milliseconds(Int((value * 1000).rounded()))
    }

    /// An http(s) URL template with `{traceId}` in it.
    func traceLinkTemplate(_ setting: ConfigurationSetting) throws(ConfigurationError) -> String? {
        guard let found = raw(setting) else { return nil }
        let template = found.value.trimmingWhitespace()
        let lowered = template.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://"), template.contains("{traceId}"),
            URL(string: template.split(separator: "{traceId}", omittingEmptySubsequences: false).joined(separator: "0")) != nil
        else {
            throw failure(setting, found, "expected an http:// or https:// URL with {traceId} in it, e.g. http://localhost:16686/trace/{traceId}")
        }
        return template
    }

    func httpURL(_ setting: ConfigurationSetting) throws(ConfigurationError) -> URL? {
        guard let found = raw(setting) else { return nil }
        guard let url = URL(string: found.value), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty
        else {
            throw failure(setting, found, "expected an http:// or https:// URL, e.g. https://api.github.com")
        }
        return url
    }

    func redisURL(_ setting: ConfigurationSetting) throws(ConfigurationError) -> RedisURL? {
        guard let found = raw(setting) else { return nil }
        do {
            return try RedisURL(parsing: found.value.trimmingWhitespace())
        } catch {
            // The value is not echoed: it may hold a password.
            throw ConfigurationError(setting, value: nil, reason: "\(error), expected redis://[user:password@]host:port[/db] or rediss://…", fromEnvironment: found.fromEnvironment)
        }
    }

    /// `--redis-sentinels` with `--redis-master-name`, each refused without the other or beside `--redis-url`.
    func redisSentinels(alongside url: RedisURL?) throws(ConfigurationError) -> RedisSentinelSettings? {
        guard let found = raw(.redisSentinels) else {
            if let name = raw(.redisMasterName) {
                throw ConfigurationError(.redisMasterName, value: nil, reason: "needs \(ConfigurationSetting.redisSentinels.flag)", fromEnvironment: name.fromEnvironment)
            }
            return nil
        }
        guard url == nil else {
            throw ConfigurationError(.redisSentinels, value: nil, reason: "cannot be combined with \(ConfigurationSetting.redisUrl.flag): give the primary's credentials, database and TLS in the sentinel list, e.g. rediss://user:password@s1:26379,s2:26379/0", fromEnvironment: found.fromEnvironment)
        }
        let list: RedisSentinelList
        do {
            list = try RedisSentinelList(parsing: found.value.trimmingWhitespace())
        } catch {
            // The value is not echoed: it may hold a password.
            throw ConfigurationError(.redisSentinels, value: nil, reason: "\(error), expected [redis://|rediss://][user:password@]host:port,host:port,…[/db]", fromEnvironment: found.fromEnvironment)
        }
        guard let name = raw(.redisMasterName) else {
            throw ConfigurationError(.redisSentinels, value: nil, reason: "needs \(ConfigurationSetting.redisMasterName.flag), the name the sentinels monitor (e.g. mymaster)", fromEnvironment: found.fromEnvironment)
        }
        let masterName = name.value.trimmingWhitespace()
        guard !masterName.isEmpty, masterName.utf8.count <= 128, masterName.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 32 && $0.value < 127 }) else {
            throw failure(.redisMasterName, name, "expected 1 to 128 printable ASCII characters without spaces, e.g. mymaster")
        }
        return RedisSentinelSettings(list: list, masterName: masterName)
    }

    func replicaID(_ setting: ConfigurationSetting) throws(ConfigurationError) -> String? {
        guard let found = raw(setting) else { return nil }
        let id = found.value.trimmingWhitespace()
        guard !id.isEmpty, id.utf8.count <= 64, id.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 32 && $0 != "\"" && $0 != "\\" }) else {
            throw failure(setting, found, "expected 1 to 64 printable ASCII characters without spaces or quotes, e.g. web-1")
        }
        return id
    }

    func choice<Value>(_ setting: ConfigurationSetting, _ options: [(String, Value)]) throws(ConfigurationError) -> Value? {
        guard let found = raw(setting) else { return nil }
        let wanted = found.value.trimmingWhitespace().lowercased()
        guard let match = options.first(where: { $0.0 == wanted }) else {
            throw failure(setting, found, "expected one of \(options.map(\.0).joined(separator: ", "))")
        }
        return match.1
    }

    func corsOrigins(_ setting: ConfigurationSetting) throws(ConfigurationError) -> CORSOrigins? {
        guard let found = raw(setting) else { return nil }
        do {
            return try CORSOrigins.parse(found.value)
        } catch {
            throw failure(setting, found, error.reason)
        }
    }

    /// `--auth-jwt-secret` or `--auth-jwt-public-key` (not both), the key checked now so a bad one
    /// stops the start; the other `--auth-*` flags need one of them.
    func authSettings() throws(ConfigurationError) -> AuthSettings? {
        let secret = raw(.authJwtSecret), publicKey = raw(.authJwtPublicKey)
        let key: AuthSettings.Key
        switch (secret, publicKey) {
        case (let secret?, nil):
            key = .secret(secret.value)
        case (nil, let file?):
            try requireReadableFile(.authJwtPublicKey, file)
            do {
                key = .publicKey(pem: try AuthSettings.readKeyFile(file.value), file: file.value)
            } catch {
                throw failure(.authJwtPublicKey, file, error.description)
            }
        case (_?, let file?):
            throw ConfigurationError(.authJwtPublicKey, value: nil, reason: "give a secret or a public key, not both (\(ConfigurationSetting.authJwtSecret.flag) is set too)", fromEnvironment: file.fromEnvironment)
        case (nil, nil):
            for setting in [ConfigurationSetting.authProtect, .authCookie, .authAudience, .authIssuer] {
                if let found = raw(setting) {
                    throw ConfigurationError(setting, value: nil, reason: "needs \(ConfigurationSetting.authJwtSecret.flag) or \(ConfigurationSetting.authJwtPublicKey.flag)", fromEnvironment: found.fromEnvironment)
                }
            }
            return nil
        }
        // A key alone protects everything: a key that silently protected nothing read as protection.
        var settings = AuthSettings(key: key, protected: Set(ProtectedArea.allCases))
        if let found = raw(.authProtect) {
            guard let areas = ProtectedArea.parse(found.value) else {
                throw failure(.authProtect, found, "expected events, metrics, users (comma-separated), all or none")
            }
            settings.protected = areas
        }
        if let found = raw(.authCookie) {
            let name = found.value.trimmingWhitespace()
            guard !name.isEmpty, name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "!#$%&'*+-.^_`|~".unicodeScalars.contains($0)) }) else {
                throw failure(.authCookie, found, "expected a cookie name (letters, digits and !#$%&'*+-.^_`|~), e.g. access_token")
            }
            settings.cookie = name
        }
        settings.audience = string(.authAudience)?.trimmingWhitespace()
        settings.issuer = string(.authIssuer)?.trimmingWhitespace()
        do {
            _ = try settings.verifier()
        } catch {
            let setting: ConfigurationSetting = secret == nil ? .authJwtPublicKey : .authJwtSecret
            // A secret is never echoed.
            throw ConfigurationError(setting, value: secret == nil ? publicKey?.value : nil, reason: error.description, fromEnvironment: (secret ?? publicKey)?.fromEnvironment ?? false)
        }
        return settings
    }

    func rate(_ setting: ConfigurationSetting, name: String) throws(ConfigurationError) -> RatePolicy? {
        guard let found = raw(setting) else { return nil }
        guard let policy = RatePolicy.parse(found.value, name: name) else {
            throw failure(setting, found, "expected a count per s, m or h, e.g. 120/m")
        }
        return policy
    }

    func trustedProxies(_ setting: ConfigurationSetting) throws(ConfigurationError) -> TrustedProxies? {
        guard let found = raw(setting) else { return nil }
        switch TrustedProxies.parse(found.value) {
        case .success(let proxies): return proxies
        case .failure(let error): throw failure(setting, found, error.reason)
        }
    }

    /// The `--otel-*` flags over the `OTEL_*` variables, read by Telemetry's rules; its error names our flag.
    func tracing() throws(ConfigurationError) -> TracingSettings? {
        do {
            return try TracingSettings.resolve { raw(ConfigurationSetting(telemetry: $0))?.value }
        } catch {
            let setting = ConfigurationSetting(telemetry: error.setting)
            throw ConfigurationError(setting, value: error.value, reason: error.reason, fromEnvironment: raw(setting)?.fromEnvironment ?? false)
        }
    }

    func tlsFiles() throws(ConfigurationError) -> ServiceConfiguration.TLSFiles? {
        let certificate = raw(.tlsCert)
        let key = raw(.tlsKey)
        switch (certificate, key) {
        case (nil, nil):
            return nil
        case (let certificate?, nil):
            throw ConfigurationError(.tlsKey, value: nil, reason: "missing: \(ConfigurationSetting.tlsCert.flag) needs a private key too", fromEnvironment: certificate.fromEnvironment)
        case (nil, let key?):
            throw ConfigurationError(.tlsCert, value: nil, reason: "missing: \(ConfigurationSetting.tlsKey.flag) needs a certificate too", fromEnvironment: key.fromEnvironment)
        case (let certificate?, let key?):
            try requireReadableFile(.tlsCert, certificate)
            try requireReadableFile(.tlsKey, key)
            return ServiceConfiguration.TLSFiles(certificate: certificate.value, privateKey: key.value)
        }
    }

    func requireReadableFile(_ setting: ConfigurationSetting, _ found: (value: String, fromEnvironment: Bool)) throws(ConfigurationError) {
        #if canImport(FoundationEssentials)
        var isDirectory = false
        #else
        var isDirectory: ObjCBool = false
        #endif
        let exists = FileManager.default.fileExists(atPath: found.value, isDirectory: &isDirectory)
        guard exists, !Bool(isDirectory), FileManager.default.isReadableFile(atPath: found.value) else {
            throw failure(setting, found, exists ? "not a readable file" : "no such file")
        }
    }
}
