// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import DemoUpstream
import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTP
import NetCore
import Streams
import Tracing

/// Everything the routes need from the upstream side, built from the service
/// configuration: the GitHub client (real upstream, or the embedded demo upstream
/// started on its own loopback port), the event hub, readiness and metrics.
public final class UpstreamServices: Sendable {
    public let client: GitHubClient
    public let hub: PipelineEventHub
    /// Set when serving the embedded demo upstream.
    public let demoServer: DemoUpstreamServer?

    public init(client: GitHubClient, hub: PipelineEventHub = .shared, demoServer: DemoUpstreamServer? = nil) {
        self.client = client
        self.hub = hub
        self.demoServer = demoServer
    }

    /// Talks to `configuration.upstream`, or starts the demo upstream in-process when it is nil.
    /// Throws when the demo upstream cannot bind its loopback port, or when an https upstream
    /// cannot be verified (`UpstreamTLSUnavailable`): never a service whose every request fails.
    public static func start(
        _ configuration: ServiceConfiguration,
        metrics: UpstreamMetrics = UpstreamMetrics(),
        hub: PipelineEventHub = .shared,
        sharedCache: (any UpstreamCacheStore)? = nil,
        tracer: (any Tracer)? = nil
    ) throws -> UpstreamServices {
        var demoServer: DemoUpstreamServer?
        let baseURL: URL
        var connectTargets: [ConnectTarget] = []
        if let upstream = configuration.upstream {
            baseURL = upstream
        } else {
            // Under its stable names, so that answers (avatar URLs, ETags) are the same in every process.
            let demo = DemoUpstreamServer(
                configuration: .init(
                    users: configuration.demoUsers, latency: configuration.demoLatency, failureRate: configuration.demoFailureRate,
                    rateLimit: configuration.demoRateLimit),
                stableNames: true)
            try demo.start()
            demoServer = demo
            baseURL = demo.clientBaseURL!
            connectTargets = demo.connectTargets
        }
        let local = configuration.upstreamCacheBytes > 0 ? InMemoryUpstreamCache(capacityBytes: configuration.upstreamCacheBytes) : nil
        // With Redis, replicas share answers behind each one's in-process tier.
        var cache: (any UpstreamCacheStore)? = local
        if let local, let sharedCache { cache = TieredUpstreamCache(front: local, back: sharedCache) }
        // Timeouts and retry back-offs on the loop that runs the exchange (see `CurrentLoopScheduler`):
        // arming one is a heap push there, where a `QueueScheduler` made a Dispatch timer per attempt.
        let http = HTTPClient(connectTo: connectTargets, http2: HTTP2ClientSettings(mode: configuration.upstreamHTTP2))
        if baseURL.scheme == "https", let reason = http.tlsUnavailable {
            demoServer?.stop()
            throw UpstreamTLSUnavailable(reason: reason)
        }
        // The first request finds its connection open (TCP, TLS, SETTINGS): the cold answer pays
        // one round trip, not three. Only an HTTP/2 origin is warmed: it is one connection, kept
        // with PING, where HTTP/1.1 would need a guess at how many.
        http.warm(baseURL)
        let client = GitHubClient(
            configuration: .init(baseURL: baseURL, token: configuration.githubToken, timeout: configuration.upstreamTimeout,
                retry: RetryPolicy(maxRetries: configuration.upstreamRetries), deadline: configuration.upstreamDeadline, cache: cache,
                singleFlight: configuration.upstreamSingleFlight, acceptsGzip: configuration.upstreamGzip,
                quota: UpstreamQuota(reserve: configuration.upstreamReserve, holdsBack: configuration.upstreamReserveHoldsBack)),
            transport: HTTPUpstreamTransport(client: http), scheduler: CurrentLoopScheduler(), metrics: metrics, tracer: tracer)
        return UpstreamServices(client: client, hub: hub, demoServer: demoServer)
    }

    public func routes(responder: EventStreamResponder) -> UserRoutes {
        UserRoutes(client: client, hub: hub, responder: responder)
    }

    /// For `/ready`: true while the upstream answers HTTP at all.
    public func isUpstreamReachable(timeout: Duration = .seconds(2)) -> Single<Bool> {
        client.probe(timeout: timeout)
    }

    public func shutdown() async {
        await demoServer?.shutdown()
    }

    /// Blocks until the embedded demo upstream has stopped: for a failed start, so the process
    /// never exits while the demo server's threads are still shutting down.
    public func stop() {
        demoServer?.stop()
    }
}

/// An https upstream with no usable TLS context (an unreadable `SSL_CERT_FILE`, say).
public struct UpstreamTLSUnavailable: Error, CustomStringConvertible {
    public let reason: String
    public var description: String { "cannot make https requests to the upstream: \(reason)" }
}
