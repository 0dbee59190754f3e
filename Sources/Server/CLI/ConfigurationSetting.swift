// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Telemetry

/// One knob of `stream-service serve`: its command-line flag and the
/// environment variable that sets it when the flag is absent.
public enum ConfigurationSetting: String, CaseIterable, Sendable, Hashable {
    case host, port, upstream, githubToken
    case demoLatencyMs, demoFailureRate, demoUsers
    case headerTimeout, idleTimeout, shutdownTimeout, bodyTimeout
    case maxBodyBytes, maxConnections, maxConnectionsPerClient, sseHeartbeat, eventsClock, eventsHistory
    case upstreamTimeout, upstreamRetries, upstreamDeadline
    case tlsCert, tlsKey, logLevel, logFormat
    case demoRateLimit, upstreamCacheBytes
    case upstreamSingleFlight, upstreamGzip
    case corsOrigins
    case redisUrl, replicaId
    case redisSentinels, redisMasterName
    case authJwtSecret, authJwtPublicKey, authProtect, authCookie, authAudience, authIssuer
    case trustedProxies
    case clientUpstreamRate, clientUpstreamBurst, clientRequestRate, rateLimitIpv6Prefix, upstreamReserve
    case http2, upstreamHttp2
    case traceLinkTemplate
    // Tracing: each flag is its OpenTelemetry environment variable's name (`--otel-service-name`, OTEL_SERVICE_NAME).
    case otelExporterOtlpEndpoint, otelExporterOtlpTracesEndpoint, otelExporterOtlpProtocol, otelExporterOtlpHeaders
    case otelExporterOtlpCompression, otelExporterOtlpTimeout, otelServiceName, otelResourceAttributes
    case otelTracesSampler, otelTracesSamplerArg, otelBspScheduleDelay, otelBspMaxQueueSize, otelBspMaxExportBatchSize, otelSdkDisabled

    /// The long flag, e.g. `--demo-latency-ms`.
    public var flag: String {
        var name = "--"
        for character in rawValue {
            if character.isUppercase {
                name += "-" + character.lowercased()
            } else {
                name.append(character)
            }
        }
        return name
    }

    /// The environment variable, e.g. `DEMO_LATENCY_MS`; `--upstream` reads `UPSTREAM_URL`.
    public var environmentVariable: String {
        if self == .upstream { return "UPSTREAM_URL" }
        return flag.dropFirst(2).replacingOccurrences(of: "-", with: "_").uppercased()
    }
}

extension ConfigurationSetting {
    /// The flag of an OpenTelemetry variable: the one whose environment variable it is.
    init(telemetry setting: TelemetrySetting) {
        self = Self.allCases.first { $0.environmentVariable == setting.environmentVariable }!
    }
}

private extension Substring {
    func replacingOccurrences(of target: Character, with replacement: Character) -> String {
        String(map { $0 == target ? replacement : $0 })
    }
}
