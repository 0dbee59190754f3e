// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Dispatch
import Domain
import HTTP
import Logging
import NetCore
import Redis
import Streams
import Telemetry
import Tracing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The assembled service: upstream (real or embedded demo), routes, metrics,
/// access log, SSE heartbeats and the HTTP server, with graceful shutdown.
///
///     let app = Application(configuration: configuration, logger: logger)
///     let port = try app.start()
///     app.shutdown { … }          // or app.serveUntilTerminated() for SIGTERM/SIGINT
public final class Application: Sendable {
    public let configuration: ServiceConfiguration
    public let metrics: ServiceMetrics
    let logger: Logger
    private let heartbeat: HeartbeatClock
    private let responder: EventStreamResponder
    private let shutdownFlag = ShutdownFlag()
    private let state = Locked(Running())
    /// Where this application's pipelines publish, and its event log: a hub of its own, keeping
    /// `--events-history` events, unless a test passes one (to publish into it directly).
    private let hub: PipelineEventHub
    /// With `--redis-sentinels`: where every Redis connection of this process finds the primary.
    private let redisSentinel: RedisSentinel?
    /// The tracer of the server's and the upstream client's spans; nil: the one bootstrapped in
    /// `InstrumentationSystem` when the application starts (none: nothing traced, at no cost).
    private let tracer: (any Tracer)?

    private struct Running: Sendable {
        var server: HTTPServer?
        var upstream: UpstreamServices?
        var eventFeed: Disposable?
        var sharedFeed: SharedEventFeed?
        var cacheConnection: RedisConnection?
        /// The shared upstream budgets' connection (`--client-upstream-rate` with `--redis-url`).
        var budgetConnection: RedisConnection?
        var feed: PipelineEventFeed?
        /// With an OTLP endpoint: the tracer installed while this application runs.
        var tracing: TracingPipeline?
        var shutdownWaiters: [@Sendable () -> Void] = []
        var stopped = false
    }

    /// `metrics` is this application's own registry (see `ServiceMetrics` for why not the global one).
    public init(
        configuration: ServiceConfiguration, logger: Logger, metrics: ServiceMetrics = ServiceMetrics(), hub: PipelineEventHub? = nil,
        tracer: (any Tracer)? = nil
    ) {
        self.configuration = configuration
        self.tracer = tracer
        self.logger = logger
        self.metrics = metrics
        self.hub = hub ?? PipelineEventHub(replayCapacity: configuration.eventsHistory)
        redisSentinel = configuration.redisSentinels?.makeSentinel()
        heartbeat = HeartbeatClock(period: configuration.sseHeartbeat)
        responder = EventStreamResponder(heartbeat: heartbeat, subscribers: metrics.sseSubscribers)
    }

    /// Starts everything; returns the port the API listens on. The first log line names the address.
    /// Throws `ConfigurationError` naming the flag when the address, port or TLS files are unusable.
    @discardableResult
    public func start() throws -> Int {
        let access = try accessControl()
        do {
            try redisSentinel?.start()
        } catch {
            throw ConfigurationError(.redisSentinels, value: nil, reason: "cannot set up TLS for the sentinels: \(error)")
        }
        do {
            return try startServing(access: access)
        } catch {
            // Its connections would otherwise reconnect for the life of the process.
            redisSentinel?.close()
            throw error
        }
    }

    private func startServing(access: AccessControl) throws -> Int {
        let fileLimit = FileDescriptorLimit.raiseToHardLimit()
        // Redis connections that cannot be made stop the start (as the shared feed's do): a shared
        // cache or budget that quietly went local would split the fleet without a word.
        let cache = try sharedCache()
        let budget = try upstreamBudget()
        // Before the upstream client and the server are made: both take their tracer when made
        // (`ActiveTracer`), and every request of this run is traced by the same one.
        let tracing = configuration.tracing.map { TracingPipeline(settings: $0, factory: metrics.factory) }
        if let tracing { TracingSystem.install(tracing.tracer) }
        let spans: (any Tracer)? = tracer ?? tracing?.tracer
        let upstream: UpstreamServices
        do {
            upstream = try UpstreamServices.start(configuration, metrics: metrics.upstream(), hub: hub, sharedCache: cache, tracer: spans)
        } catch let error as UpstreamTLSUnavailable {
            if let tracing { TracingSystem.uninstall(tracing.tracer) }
            throw ConfigurationError(.upstream, value: configuration.upstream?.absoluteString, reason: error.description)
        } catch {
            if let tracing { TracingSystem.uninstall(tracing.tracer) }
            throw ConfigurationError(.upstream, value: nil, reason: "cannot start the embedded demo upstream: \(error)")
        }
        // A client ahead of this replica waits up to 2 s for the shared feed (Redis answers in about 1 ms).
        let feed = PipelineEventFeed(hub: upstream.hub, catchUpWait: configuration.redisURL == nil ? nil : .seconds(2))
        let ceiling = ConnectionCeiling.clamp(configuration.maxConnections, openFilesLimit: fileLimit)
        let server = makeServer(upstream: upstream, feed: feed, access: access, budget: budget, maxConnections: ceiling.maxConnections, tracer: spans)
        let port: Int
        do {
            port = try server.start()
        } catch {
            upstream.stop()
            if let tracing { TracingSystem.uninstall(tracing.tracer) }
            throw StartupFailure.configurationError(for: error, configuration: configuration)
        }
        let shared: SharedEventFeed?
        do {
            shared = try makeSharedFeed(feed, port: port)
        } catch {
            server.shutdown(deadline: .zero) {}
            upstream.stop()
            throw ConfigurationError(.redisUrl, value: nil, reason: "cannot set up TLS for Redis: \(error)")
        }
        let feedSubscription = feed.start(clock: configuration.eventsClock, shared: shared)
        heartbeat.start()
        state.withLock {
            $0.server = server
            $0.upstream = upstream
            $0.eventFeed = feedSubscription
            $0.sharedFeed = shared
            $0.feed = feed
            $0.tracing = tracing
        }
        let scheme = configuration.tls == nil ? "http" : "https"
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        logger.info("listening on \(scheme)://\(host):\(port)", metadata: EffectiveConfiguration(configuration: configuration).metadata.merging([
            "address": .string("\(host):\(port)"),
            "open_files_limit": .stringConvertible(fileLimit),
            "upstream": .string(configuration.upstream?.absoluteString ?? upstream.demoServer?.baseURL.map { "embedded demo at \($0.absoluteString)" } ?? "embedded demo"),
        ]) { _, new in new })
        if let warning = ceiling.warning {
            logger.warning("\(warning)", metadata: ["max_connections": .stringConvertible(ceiling.maxConnections)])
        }
        // Connects in the background; its log lines come after the address line.
        shared?.start()
        return port
    }

    /// How every Redis connection of this process connects: `--redis-url`'s address, or the primary
    /// the sentinels name (followed through failovers), with `--redis-url`'s or the list's credentials.
    private var redisConfiguration: RedisConfiguration? {
        configuration.redisURL.map { RedisConfiguration(url: $0, sentinel: redisSentinel) }
    }

    /// A connection of its own to the Redis every shared part uses; throws, naming the flag, when
    /// `rediss://` cannot set up TLS.
    private func redisConnection(for role: String) throws(ConfigurationError) -> RedisConnection? {
        guard let redis = redisConfiguration else { return nil }
        do {
            return try RedisConnection(configuration: redis)
        } catch {
            let setting: ConfigurationSetting = configuration.redisSentinels == nil ? .redisUrl : .redisSentinels
            throw ConfigurationError(setting, value: nil, reason: "cannot set up TLS for Redis (the \(role)): \(error)")
        }
    }

    /// With Redis (and the cache on): the upstream cache's Redis tier, on a connection of its own.
    private func sharedCache() throws(ConfigurationError) -> (any UpstreamCacheStore)? {
        guard configuration.upstreamCacheBytes > 0, let connection = try redisConnection(for: "shared cache") else { return nil }
        state.withLock { $0.cacheConnection = connection }
        connection.start()
        return RedisUpstreamCache(connection: connection)
    }

    /// With `--redis-url`: this replica's part of the shared feed (started after the first log line).
    private func makeSharedFeed(_ feed: PipelineEventFeed, port: Int) throws -> SharedEventFeed? {
        guard let redis = redisConfiguration else { return nil }
        let replicaID = configuration.replicaID ?? "\(Self.hostname()):\(port)"
        let shared = try SharedEventFeed(redis: redis, replicaID: replicaID, feed: feed, clock: configuration.eventsClock, logger: logger)
        shared.installMetrics(into: metrics)
        return shared
    }

    static func hostname() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private func makeServer(
        upstream: UpstreamServices, feed: PipelineEventFeed, access: AccessControl, budget: UpstreamBudget?, maxConnections: Int,
        tracer: (any Tracer)?
    ) -> HTTPServer {
        let shutdownFlag = self.shutdownFlag
        let state = self.state
        var readiness = ReadinessRoute(probe: { upstream.isUpstreamReachable() }, isShuttingDown: { shutdownFlag.isRaised })
        readiness.isDraining = { shutdownFlag.isDraining }
        if configuration.redisURL != nil {
            // Before Redis is first reached the shared feed is not there yet: degraded.
            readiness.eventsStatus = { state.withLock { $0.sharedFeed }?.status ?? SharedEventFeed.degraded }
        }
        if let quota = upstream.client.configuration.quota {
            let report = QuotaReport(quota: quota)
            readiness.quotaStatus = { (budget?.status.map { #","budgets":"\#($0)""# } ?? "") + report.readinessFragment() }
            metrics.sampleAtScrape(report.sampler(factory: metrics.factory))
        }
        let router = ServiceRouter(
            metrics: metrics, responder: responder, eventFeed: feed,
            readiness: readiness, userRoutes: upstream.routes(responder: responder),
            corsOrigins: configuration.corsOrigins, access: access,
            budget: budget,
            requestRate: configuration.clientRequestRate.map { LocalRateLimiter<AddressDebts>(policy: $0, maximumClients: configuration.rateLimitClients) },
            addresses: addresses, traceLinkTemplate: configuration.traceLinkTemplate
        ).build()
        let accessLog = AccessLog(logger: logger)
        let events = ServerEventLog(logger: logger)
        let deadline = configuration.shutdownTimeout
        let observer = HTTPServerObserver(
            requestCompleted: { request in accessLog.record(request) },
            requestRejected: { rejection in events.rejected(rejection) },
            acceptPauseChanged: { pause in events.acceptPause(pause) },
            shutdownDeadlineReached: { report in events.deadlineReached(report, deadline: deadline) },
            http2Event: { event in events.http2(event) },
            handlerFailed: { failure in events.handlerFailed(failure) })
        return HTTPServer(configuration: serverConfiguration(maxConnections: maxConnections, tracer: tracer), router: router, observer: observer, metrics: metrics.http)
    }

    /// Tokens (`--auth-*`) and client identity (`--trusted-proxies`). A key that cannot be made
    /// into a verifier stops the start: running with the protection off is never the fallback.
    private func accessControl() throws(ConfigurationError) -> AccessControl {
        guard let auth = configuration.auth else { return AccessControl(proxies: configuration.trustedProxies, factory: metrics.factory) }
        let verifier: JWTVerifier
        do {
            verifier = try auth.verifier()
        } catch {
            let setting: ConfigurationSetting = if case .secret = auth.key { .authJwtSecret } else { .authJwtPublicKey }
            throw ConfigurationError(setting, value: nil, reason: "\(error.description); not starting without the access control asked for")
        }
        return AccessControl(
            verifier: verifier, protected: auth.protected, cookie: auth.cookie,
            proxies: configuration.trustedProxies, factory: metrics.factory)
    }

    /// `--client-upstream-rate`: shared through Redis (a connection of its own) when there is one.
    private func upstreamBudget() throws(ConfigurationError) -> UpstreamBudget? {
        guard let policy = configuration.clientUpstreamRate else { return nil }
        let clients = configuration.rateLimitClients
        guard let connection = try redisConnection(for: "shared budgets") else {
            return UpstreamBudget(policy: policy, addresses: addresses, maximumClients: clients)
        }
        state.withLock { $0.budgetConnection = connection }
        connection.start()
        return UpstreamBudget(
            policy: policy, redis: connection, addresses: addresses, maximumClients: clients, redisTimeout: configuration.budgetRedisTimeout)
    }

    /// `--rate-limit-ipv6-prefix`, for every per-client limit.
    private var addresses: ClientAddressKey {
        ClientAddressKey(ipv6PrefixLength: configuration.rateLimitIPv6Prefix)
    }

    /// `maxConnections`: `--max-connections` after `ConnectionCeiling` had its say.
    /// `tracer`: the requests' SERVER spans' (nil: none bootstrapped, none made).
    func serverConfiguration(maxConnections: Int, tracer: (any Tracer)? = nil) -> HTTPServerConfiguration {
        var server = HTTPServerConfiguration(host: configuration.host, port: configuration.port)
        server.timeouts.header = configuration.headerTimeout
        server.timeouts.idle = configuration.idleTimeout
        server.timeouts.body = configuration.bodyTimeout
        server.limits.maxBodyBytes = configuration.maxBodyBytes
        server.limits.maxConnections = maxConnections
        server.limits.maxConnectionsPerClient = configuration.maxConnectionsPerClient
        server.perClientConnectionKey = Self.perClientConnectionKey(trusting: configuration.trustedProxies)
        server.http2Enabled = configuration.http2
        server.tracer = tracer
        server.tls = configuration.tls.map { .server(certificateChainFile: $0.certificate, privateKeyFile: $0.privateKey) }
        if configuration.redisURL != nil {
            // Replicas share one feed, so the ids of their requests must not collide there.
            server.requestIDPrefix = "req-\(Self.requestIDScope(configuration.replicaID))-"
        }
        return server
    }

    /// Whose connections `--max-connections-per-client` counts together: the peer's address, except
    /// that each connection of a trusted proxy counts on its own, since it carries many clients (who
    /// are told apart per request, by `clientAddress`, when their limits are checked).
    static func perClientConnectionKey(trusting proxies: TrustedProxies) -> PerClientConnectionKey {
        guard !proxies.isEmpty else { return .peerAddress }
        return PerClientConnectionKey { address in
            let host = address.host
            guard let peer = IPAddress(peer: host), proxies.trusts(peer) else { return host }
            return address.description
        }
    }

    /// What sets this process's generated request ids apart: the replica id, or hostname and pid
    /// (the port may still be 0 here), reduced to token characters.
    static func requestIDScope(_ replicaID: String?) -> String {
        let scope = replicaID ?? "\(hostname())-\(getpid())"
        return String(scope.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "_") ? $0 : "-" })
    }

    /// The id of the last event `/events` has (0 before the first); with Redis, the last one read from it.
    var lastEventID: Int { state.withLock { $0.feed }?.lastID ?? 0 }

    /// The API port once started.
    public var port: Int? { state.withLock { $0.server?.port } }

    public var isShuttingDown: Bool { shutdownFlag.isRaised }

    /// Turns `/ready` to 503 and changes nothing else: the step before a stop that lets the
    /// balancers take this replica out while it still serves (a Kubernetes `preStop`).
    public func drain() {
        guard shutdownFlag.drain() else { return }
        logger.info("draining: /ready answers 503, everything else still serves until SIGTERM")
    }

    /// Graceful shutdown within `--shutdown-timeout`: stop accepting, let in-flight
    /// requests finish, end SSE feeds with `event: shutdown`, then stop the demo
    /// upstream. `completion` runs once all of that is done (every caller's).
    public func shutdown(completion: @escaping @Sendable () -> Void = {}) {
        let alreadyStopped = state.withLock { state -> Bool in
            if !state.stopped { state.shutdownWaiters.append(completion) }
            return state.stopped
        }
        if alreadyStopped { completion(); return }
        guard shutdownFlag.raise() else { return }
        let (server, upstream, feed, shared, cacheConnection, budgetConnection, tracing) = state.withLock {
            ($0.server, $0.upstream, $0.eventFeed, $0.sharedFeed, $0.cacheConnection, $0.budgetConnection, $0.tracing)
        }
        logger.info("shutting down", metadata: ["deadline_s": .stringConvertible(configuration.shutdownTimeout.seconds)])
        let finish: @Sendable () -> Void = { [self] in
            heartbeat.stop()
            feed?.dispose()
            shared?.stop()
            cacheConnection?.close()
            budgetConnection?.close()
            redisSentinel?.close()
            Task {
                await upstream?.shutdown()
                // The spans of the last requests leave now, within one export timeout.
                if let tracing {
                    await withCheckedContinuation { done in tracing.shutdown(deadline: tracing.settings.timeout) { done.resume() } }
                    TracingSystem.uninstall(tracing.tracer)
                }
                let waiters = state.withLock { state -> [@Sendable () -> Void] in
                    state.stopped = true
                    defer { state.shutdownWaiters = [] }
                    return state.shutdownWaiters
                }
                logger.info("stopped")
                for waiter in waiters { waiter() }
            }
        }
        if let server {
            server.shutdown(deadline: configuration.shutdownTimeout, completion: finish)
        } else {
            finish()
        }
    }

    /// Starts the service and blocks until SIGTERM or SIGINT has shut it down
    /// gracefully; SIGUSR1 drains it first (`drain()`). Signal handlers are installed before the first log line, so a
    /// signal sent as soon as the address is printed is never fatal.
    public func serveUntilTerminated() throws {
        let done = DispatchSemaphore(value: 0)
        let signals = SignalWatcher(signals: [SIGTERM, SIGINT, SIGUSR1]) { [self] signal in
            guard signal != SIGUSR1 else { return drain() }
            logger.info("received \(signal == SIGTERM ? "SIGTERM" : "SIGINT")")
            shutdown { done.signal() }
        }
        defer { signals.cancel() }
        try start()
        done.wait()
    }
}
