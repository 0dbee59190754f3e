// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import Logging

/// What the first log line says beside the address: what is protected, limited, shared and
/// encrypted, as the service will really run it (defaults applied, secrets never shown), so an
/// operator reads the security posture of a start without reading its flags.
struct EffectiveConfiguration {
    let configuration: ServiceConfiguration

    var metadata: Logger.Metadata {
        [
            "auth": .string(auth),
            "rate_limits": .string(rateLimits),
            "redis": .string(configuration.redisSentinels?.description ?? configuration.redisURL.map(String.init(describing:)) ?? "none (events, cache and budgets in this process)"),
            "tls": .string(configuration.tls == nil ? "off" : "on"),
            "http2": .string(http2),
            "upstream_http2": .string(upstreamHTTP2),
            "tracing": .string(configuration.tracing.map { "otlp \($0.summary)" } ?? "off (no OTEL_EXPORTER_OTLP_ENDPOINT, or OTEL_SDK_DISABLED=true)"),
        ]
    }

    /// `protecting events,metrics,users with an HS256 secret`, `off`, …
    var auth: String {
        guard let auth = configuration.auth else { return "off (no key; nothing protected)" }
        let key = switch auth.key {
        case .secret: "an HS256 secret"
        case .publicKeyFile(let file), .publicKey(_, let file): "the public key in \(file)"
        }
        let areas = ProtectedArea.allCases.filter(auth.protected.contains).map(\.rawValue)
        return areas.isEmpty ? "tokens read with \(key), nothing protected (--auth-protect none)" : "protecting \(areas.joined(separator: ",")) with \(key)"
    }

    /// `requests 20/s per client, upstream 120/m per client (burst 10)`, or `none`.
    var rateLimits: String {
        let limits = [("requests", configuration.clientRequestRate), ("upstream", configuration.clientUpstreamRate)].compactMap { name, policy in
            policy.map { "\(name) \(Self.describe($0)) per client" }
        }
        return limits.isEmpty ? "none" : limits.joined(separator: ", ")
    }

    var http2: String {
        guard configuration.http2 else { return "off" }
        return configuration.tls == nil ? "h2c (prior knowledge)" : "h2 (ALPN)"
    }

    /// `auto (h2 by ALPN over TLS, else HTTP/1.1)`, …
    var upstreamHTTP2: String {
        switch configuration.upstreamHTTP2 {
        case .auto: "auto (h2 by ALPN over TLS, HTTP/1.1 in cleartext)"
        case .priorKnowledge: "prior-knowledge (h2 by ALPN over TLS, h2c in cleartext)"
        case .off: "off (HTTP/1.1)"
        }
    }

    static func describe(_ policy: RatePolicy) -> String {
        let unit = switch policy.periodSeconds {
        case 1: "s"
        case 60: "m"
        case 3600: "h"
        default: "\(policy.periodSeconds) s"
        }
        return "\(policy.count)/\(unit)" + (policy.burst == policy.count ? "" : " (burst \(policy.burst))")
    }
}
