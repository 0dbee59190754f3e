// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `stream-service healthcheck`: exit 0 iff `GET /health` answers 200, for a
/// container HEALTHCHECK in an image without curl.
struct HealthcheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "healthcheck",
        abstract: "Exit 0 when the service's /health answers 200, else 1."
    )

    @Option(help: "URL to check, http or https (certificate not verified: it checks its own service). (default: http://127.0.0.1:$PORT/health, PORT defaulting to 8080; https when TLS_CERT is set, as in the service's own environment)") var url: String?
    @Option(help: "Seconds to wait for the answer.") var timeout: Double = 3

    func run() throws {
        let target = url ?? Self.defaultURL(environment: ProcessInfo.processInfo.environment)
        switch HealthProbe.check(url: target, timeout: .milliseconds(Int(timeout * 1000))) {
        case .healthy:
            print("healthy: \(target) answered 200")
        case .unhealthy(let reason):
            print("unhealthy: \(target): \(reason)")
            throw ExitCode.failure
        }
    }

    /// The service's own `/health` on loopback, as its environment configures it.
    static func defaultURL(environment: [String: String]) -> String {
        let port = environment["PORT"].flatMap { Int($0) } ?? 8080
        let scheme = environment["TLS_CERT", default: ""].isEmpty ? "http" : "https"
        return "\(scheme)://127.0.0.1:\(port)/health"
    }
}
