// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import CoreMetrics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging

/// `stream-service serve`: runs the API until SIGTERM/SIGINT.
///
/// Every option is read as text and validated by `ServiceConfiguration`, so a bad
/// value from a flag or from its environment variable gets the same one-line error.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the API (the default command). Each option falls back to its environment variable, then its default."
    )

    @Option(help: "Address to listen on. [env: HOST] (default: 0.0.0.0)") var host: String?
    @Option(help: "Port to listen on; 0 picks a free one. [env: PORT] (default: 8080)") var port: String?
    @Option(help: "GitHub-compatible upstream base URL, e.g. https://api.github.com; absent = embedded demo upstream. [env: UPSTREAM_URL]") var upstream: String?
    @Option(help: "Token sent to the upstream as a Bearer token. [env: GITHUB_TOKEN]") var githubToken: String?
    @Option(help: "Demo upstream: latency per answer in milliseconds. [env: DEMO_LATENCY_MS] (default: 0)") var demoLatencyMs: String?
    @Option(help: "Demo upstream: fraction of answers that fail, 0.0-1.0. [env: DEMO_FAILURE_RATE] (default: 0.0)") var demoFailureRate: String?
    @Option(help: "Demo upstream: number of users. [env: DEMO_USERS] (default: 1000)") var demoUsers: String?
    @Option(help: "Seconds a client may take to send a request's headers. [env: HEADER_TIMEOUT] (default: 10)") var headerTimeout: String?
    @Option(help: "Seconds an idle keep-alive connection stays open. [env: IDLE_TIMEOUT] (default: 60)") var idleTimeout: String?
    @Option(help: "Seconds graceful shutdown may take; then requests still waiting get 503 and connections are closed. [env: SHUTDOWN_TIMEOUT] (default: 8)") var shutdownTimeout: String?
    @Option(help: "Seconds a client may take to send a request's body once its headers are in — per request on HTTP/1.1, per stream on HTTP/2 (HEADERS to END_STREAM); then 408. [env: BODY_TIMEOUT] (default: 30)") var bodyTimeout: String?
    @Option(help: "Largest accepted request body in bytes. [env: MAX_BODY_BYTES] (default: 1048576)") var maxBodyBytes: String?
    @Option(help: "Most connections open at once; lowered at start to what the open-files limit allows. [env: MAX_CONNECTIONS] (default: 16384)") var maxConnections: String?
    @Option(help: "Most connections open at once from one client address; 0 = no cap. [env: MAX_CONNECTIONS_PER_CLIENT] (default: 0)") var maxConnectionsPerClient: String?
    @Option(help: "Seconds one upstream attempt may take before it is retried. [env: UPSTREAM_TIMEOUT] (default: 5)") var upstreamTimeout: String?
    @Option(help: "Upstream attempts repeated after a connection error, timeout, 5xx or 429. [env: UPSTREAM_RETRIES] (default: 6)") var upstreamRetries: String?
    @Option(help: "Seconds one upstream call may take in all, retries and back-off included; then 504. [env: UPSTREAM_DEADLINE] (default: 10)") var upstreamDeadline: String?
    @Option(help: "Seconds between heartbeat comments on an idle event stream. [env: SSE_HEARTBEAT] (default: 15)") var sseHeartbeat: String?
    @Option(help: "Seconds between `tick K` broadcasts on /events (pipeline `clock`); 0 = none. [env: EVENTS_CLOCK] (default: 0)") var eventsClock: String?
    @Option(help: "Events /events keeps for a client resuming with Last-Event-ID, 1-1000000; older ones answer `event: reset`. Each costs about 550 bytes of memory (the default about 0.5 MB, the most about 550 MB). [env: EVENTS_HISTORY] (default: 1000)") var eventsHistory: String?
    @Option(help: "PEM certificate chain; enables TLS (1.2+) with --tls-key. [env: TLS_CERT]") var tlsCert: String?
    @Option(help: "PEM private key for --tls-cert. [env: TLS_KEY]") var tlsKey: String?
    @Option(help: "trace, debug, info, notice, warning, error or critical. [env: LOG_LEVEL] (default: info)") var logLevel: String?
    @Option(help: "json or text. [env: LOG_FORMAT] (default: text)") var logFormat: String?
    @Option(help: "Demo upstream: API requests allowed per hour, then 403 until the reset (and some 429s); 0 = unlimited. [env: DEMO_RATE_LIMIT] (default: 0)") var demoRateLimit: String?
    @Option(help: "Bytes the upstream response cache may hold (LRU); 0 disables it. [env: UPSTREAM_CACHE_BYTES] (default: 67108864)") var upstreamCacheBytes: String?
    @Option(help: "true or false: identical upstream GETs in flight at once share one request. [env: UPSTREAM_SINGLE_FLIGHT] (default: true)") var upstreamSingleFlight: String?
    @Option(help: "true or false: ask the upstream for gzip (false for an upstream on this host or network). [env: UPSTREAM_GZIP] (default: true)") var upstreamGzip: String?
    @Option(help: "Origins whose pages may read the API (CORS), comma-separated, e.g. https://app.example,http://localhost:3000; * for any. [env: CORS_ORIGINS] (default: none)") var corsOrigins: String?
    @Option(help: "Share /events with every replica using this Redis: redis://[user:password@]host:port[/db] or rediss://…; absent = in-process feed. [env: REDIS_URL]") var redisUrl: String?
    @Option(help: "Names this replica in shared events. [env: REPLICA_ID] (default: hostname:port)") var replicaId: String?
    @Option(help: "Instead of --redis-url: find and follow the primary through these Sentinels, [redis://|rediss://][user:password@]host:port,host:port,…[/db] (port default 26379). The credentials, database and TLS are the primary's (sentinels are asked without credentials, over TLS with rediss://). Needs --redis-master-name. [env: REDIS_SENTINELS]") var redisSentinels: String?
    @Option(help: "The master name the sentinels monitor, e.g. mymaster (with --redis-sentinels). [env: REDIS_MASTER_NAME]") var redisMasterName: String?
    @Option(help: "HS256 secret (32+ bytes) that verifies bearer tokens; enables access control. [env: AUTH_JWT_SECRET]") var authJwtSecret: String?
    @Option(help: "PEM public key file (EC P-256 for ES256, RSA for RS256) that verifies bearer tokens. [env: AUTH_JWT_PUBLIC_KEY]") var authJwtPublicKey: String?
    @Option(help: "What needs a token: events, metrics, users (comma-separated), all or none (tokens read for identity only). [env: AUTH_PROTECT] (default: all once a key is given)") var authProtect: String?
    @Option(help: "Cookie that may carry the token (a browser's EventSource cannot send headers). [env: AUTH_COOKIE]") var authCookie: String?
    @Option(help: "Tokens must name this audience (aud). [env: AUTH_AUDIENCE]") var authAudience: String?
    @Option(help: "Tokens must come from this issuer (iss). [env: AUTH_ISSUER]") var authIssuer: String?
    @Option(help: "Proxies (CIDRs, comma-separated) whose X-Forwarded-For/Forwarded names the client. [env: TRUSTED_PROXIES] (default: none)") var trustedProxies: String?
    @Option(help: "Upstream requests a client (token sub, else address) may cause, e.g. 120/m; cached answers are free. [env: CLIENT_UPSTREAM_RATE] (default: unlimited)") var clientUpstreamRate: String?
    @Option(help: "Upstream requests a client may cause at once. [env: CLIENT_UPSTREAM_BURST] (default: the rate's count)") var clientUpstreamBurst: String?
    @Option(help: "Requests a client address may send to any route, e.g. 20/s. [env: CLIENT_REQUEST_RATE] (default: unlimited)") var clientRequestRate: String?
    @Option(help: "Bits of an IPv6 client address the per-client limits count it by (1 to 128; 64: a subscriber's /64 is one client). [env: RATE_LIMIT_IPV6_PREFIX] (default: 64)") var rateLimitIpv6Prefix: String?
    @Option(help: "Upstream requests kept back: at this x-ratelimit-remaining, uncached work gets 503 until the reset. [env: UPSTREAM_RESERVE] (default: 10 % of the reported limit with --github-token or --demo-rate-limit, else none)") var upstreamReserve: String?
    @Option(help: "on or off: HTTP/2 beside HTTP/1.1 on the same port (h2c with prior knowledge; h2 by ALPN over TLS). [env: HTTP2] (default: on)") var http2: String?
    @Option(help: "Where the page at / links a traced run: an http(s) URL with {traceId} for the trace id, e.g. http://localhost:16686/trace/{traceId} (Jaeger) or a Grafana Tempo explore URL. [env: TRACE_LINK_TEMPLATE] (default: the id shown, no link)") var traceLinkTemplate: String?

    @Option(help: "Export traces (OTLP/HTTP) to this collector; spans go to <url>/v1/traces. Absent = no tracing, no cost. [env: OTEL_EXPORTER_OTLP_ENDPOINT]") var otelExporterOtlpEndpoint: String?
    @Option(help: "The full traces URL, instead of --otel-exporter-otlp-endpoint's <url>/v1/traces. [env: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT]") var otelExporterOtlpTracesEndpoint: String?
    @Option(help: "http/protobuf or http/json. [env: OTEL_EXPORTER_OTLP_PROTOCOL] (default: http/protobuf)") var otelExporterOtlpProtocol: String?
    @Option(help: "Fields sent with every export, name=value,… (values percent-encoded), e.g. api-key=secret. [env: OTEL_EXPORTER_OTLP_HEADERS]") var otelExporterOtlpHeaders: String?
    @Option(help: "gzip or none. [env: OTEL_EXPORTER_OTLP_COMPRESSION] (default: none)") var otelExporterOtlpCompression: String?
    @Option(help: "Milliseconds one export attempt may take. [env: OTEL_EXPORTER_OTLP_TIMEOUT] (default: 10000)") var otelExporterOtlpTimeout: String?
    @Option(help: "service.name of the exported spans. [env: OTEL_SERVICE_NAME] (default: stream-service)") var otelServiceName: String?
    @Option(help: "Resource attributes, key=value,… (values percent-encoded), e.g. deployment.environment=prod. [env: OTEL_RESOURCE_ATTRIBUTES]") var otelResourceAttributes: String?
    @Option(help: "always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off or parentbased_traceidratio. [env: OTEL_TRACES_SAMPLER] (default: parentbased_always_on)") var otelTracesSampler: String?
    @Option(help: "The ratio (0.0-1.0) of the traceidratio samplers. [env: OTEL_TRACES_SAMPLER_ARG] (default: 1.0)") var otelTracesSamplerArg: String?
    @Option(help: "Milliseconds between exports of the span queue. [env: OTEL_BSP_SCHEDULE_DELAY] (default: 5000)") var otelBspScheduleDelay: String?
    @Option(help: "Spans kept waiting for export; more are dropped (and counted), never buffered. [env: OTEL_BSP_MAX_QUEUE_SIZE] (default: 2048)") var otelBspMaxQueueSize: String?
    @Option(help: "Spans per export request. [env: OTEL_BSP_MAX_EXPORT_BATCH_SIZE] (default: 512)") var otelBspMaxExportBatchSize: String?
    @Option(help: "true turns tracing off whatever else is set. [env: OTEL_SDK_DISABLED] (default: false)") var otelSdkDisabled: String?

    @Option(help: "auto, prior-knowledge or off: HTTP/2 to the upstream. auto offers h2 then http/1.1 by ALPN over TLS (one connection per origin, opened at start and kept alive with PING; HTTP/1.1 when the origin picks it) and speaks HTTP/1.1 in cleartext; prior-knowledge also speaks h2c to a cleartext upstream; off is HTTP/1.1 only. [env: UPSTREAM_HTTP2] (default: auto)") var upstreamHttp2: String?

    /// The options given on the command line, by setting.
    var flags: [ConfigurationSetting: String] {
        let values: [(ConfigurationSetting, String?)] = [
            (.host, host), (.port, port), (.upstream, upstream), (.githubToken, githubToken),
            (.demoLatencyMs, demoLatencyMs), (.demoFailureRate, demoFailureRate), (.demoUsers, demoUsers),
            (.headerTimeout, headerTimeout), (.idleTimeout, idleTimeout), (.shutdownTimeout, shutdownTimeout), (.bodyTimeout, bodyTimeout),
            (.maxBodyBytes, maxBodyBytes), (.maxConnections, maxConnections), (.maxConnectionsPerClient, maxConnectionsPerClient),
            (.sseHeartbeat, sseHeartbeat), (.eventsClock, eventsClock), (.eventsHistory, eventsHistory),
            (.upstreamTimeout, upstreamTimeout), (.upstreamRetries, upstreamRetries), (.upstreamDeadline, upstreamDeadline),
            (.tlsCert, tlsCert), (.tlsKey, tlsKey), (.logLevel, logLevel), (.logFormat, logFormat),
            (.demoRateLimit, demoRateLimit), (.upstreamCacheBytes, upstreamCacheBytes),
            (.upstreamSingleFlight, upstreamSingleFlight),
            (.upstreamGzip, upstreamGzip),
            (.corsOrigins, corsOrigins),
            (.redisUrl, redisUrl), (.replicaId, replicaId),
            (.redisSentinels, redisSentinels), (.redisMasterName, redisMasterName),
            (.authJwtSecret, authJwtSecret), (.authJwtPublicKey, authJwtPublicKey), (.authProtect, authProtect),
            (.authCookie, authCookie), (.authAudience, authAudience), (.authIssuer, authIssuer),
            (.trustedProxies, trustedProxies),
            (.clientUpstreamRate, clientUpstreamRate), (.clientUpstreamBurst, clientUpstreamBurst),
            (.clientRequestRate, clientRequestRate), (.rateLimitIpv6Prefix, rateLimitIpv6Prefix), (.upstreamReserve, upstreamReserve),
            (.http2, http2), (.upstreamHttp2, upstreamHttp2),
            (.traceLinkTemplate, traceLinkTemplate),
            (.otelExporterOtlpEndpoint, otelExporterOtlpEndpoint), (.otelExporterOtlpTracesEndpoint, otelExporterOtlpTracesEndpoint),
            (.otelExporterOtlpProtocol, otelExporterOtlpProtocol), (.otelExporterOtlpHeaders, otelExporterOtlpHeaders),
            (.otelExporterOtlpCompression, otelExporterOtlpCompression), (.otelExporterOtlpTimeout, otelExporterOtlpTimeout),
            (.otelServiceName, otelServiceName), (.otelResourceAttributes, otelResourceAttributes),
            (.otelTracesSampler, otelTracesSampler), (.otelTracesSamplerArg, otelTracesSamplerArg),
            (.otelBspScheduleDelay, otelBspScheduleDelay), (.otelBspMaxQueueSize, otelBspMaxQueueSize),
            (.otelBspMaxExportBatchSize, otelBspMaxExportBatchSize), (.otelSdkDisabled, otelSdkDisabled),
        ]
        return Dictionary(uniqueKeysWithValues: values.compactMap { setting, value in value.map { (setting, $0) } })
    }

    func run() throws {
        let configuration = try CommandLineFailure.exitOnError { try ServiceConfiguration.resolve(flags: flags) }
        let logger = ServiceLogging.bootstrap(level: configuration.logLevel, format: configuration.logFormat)
        // The process-wide backend is this application's registry, so libraries that emit
        // through `MetricsSystem` appear at /metrics beside the service's own families.
        let metrics = ServiceMetrics()
        MetricsSystem.bootstrap(metrics.factory)
        let application = Application(configuration: configuration, logger: logger, metrics: metrics)
        try CommandLineFailure.exitOnError { try application.serveUntilTerminated() }
        LineWriter.standardOutput.flush()
    }
}
