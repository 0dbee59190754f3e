// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import Dispatch
import DemoUpstream
import Domain
import HTTP
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `stream-service demo-upstream`: only the embedded GitHub-compatible demo upstream.
struct DemoUpstreamCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo-upstream",
        abstract: "Serve only the deterministic GitHub-shaped demo upstream (users, repos, identicon avatars on a second port)."
    )

    /// Not 8080, so it can run next to `serve` on one host without flags.
    static let defaultPort = 8081

    @Option(help: "Address to listen on. [env: HOST] (default: 0.0.0.0)") var host: String?
    @Option(help: "Port to listen on. [env: PORT] (default: 8081)") var port: String?
    @Option(help: "Latency per answer in milliseconds. [env: DEMO_LATENCY_MS] (default: 0)") var demoLatencyMs: String?
    @Option(help: "Fraction of answers that fail, 0.0-1.0. [env: DEMO_FAILURE_RATE] (default: 0.0)") var demoFailureRate: String?
    @Option(help: "Number of users. [env: DEMO_USERS] (default: 1000)") var demoUsers: String?
    @Option(help: "API requests allowed per hour, then 403 until the reset (and some 429s); 0 = unlimited. [env: DEMO_RATE_LIMIT] (default: 0)") var demoRateLimit: String?
    @Option(help: "json or text. [env: LOG_FORMAT] (default: text)") var logFormat: String?

    func run() throws {
        var flags: [ConfigurationSetting: String] = [:]
        flags[.host] = host
        flags[.port] = port
        flags[.demoLatencyMs] = demoLatencyMs
        flags[.demoFailureRate] = demoFailureRate
        flags[.demoUsers] = demoUsers
        flags[.demoRateLimit] = demoRateLimit
        flags[.logFormat] = logFormat
        var environment = ProcessInfo.processInfo.environment
        if port == nil, environment["PORT", default: ""].isEmpty { environment["PORT"] = String(Self.defaultPort) }
        let configuration = try CommandLineFailure.exitOnError { try ServiceConfiguration.resolve(flags: flags, environment: environment) }
        let logger = ServiceLogging.bootstrap(level: configuration.logLevel, format: configuration.logFormat)
        let server = DemoUpstreamServer(
            configuration: .init(
                users: configuration.demoUsers, latency: configuration.demoLatency, failureRate: configuration.demoFailureRate,
                rateLimit: configuration.demoRateLimit),
            host: configuration.host, port: configuration.port)
        let done = DispatchSemaphore(value: 0)
        let signals = SignalWatcher(signals: [SIGTERM, SIGINT]) { _ in
            Task {
                await server.shutdown()
                done.signal()
            }
        }
        defer { signals.cancel() }
        let port = try CommandLineFailure.exitOnError {
            do { return try server.start() } catch { throw StartupFailure.configurationError(for: error, configuration: configuration) }
        }
        logger.info(
            "demo upstream listening on http://\(configuration.host):\(port)",
            metadata: ["users": .stringConvertible(configuration.demoUsers), "avatarPort": .stringConvertible(server.avatarPort ?? 0)])
        done.wait()
        logger.info("stopped")
        LineWriter.standardOutput.flush()
    }
}
