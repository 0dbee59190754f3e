// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Names the flag behind an error the server raised while starting.
enum StartupFailure {
    static func configurationError(for error: Error, configuration: ServiceConfiguration) -> ConfigurationError {
        if let error = error as? ConfigurationError { return error }
        if let error = error as? ResolutionError {
            return ConfigurationError(.host, value: configuration.host, reason: "cannot listen on this address: name lookup failed: \(error.reason)")
        }
        if let error = error as? SocketError {
            if error.code == EADDRNOTAVAIL {
                return ConfigurationError(.host, value: configuration.host, reason: "cannot listen on this address: \(error)")
            }
            let reason = error.code == EADDRINUSE ? "port already in use" : (error.code == EACCES ? "permission denied" : "cannot listen")
            return ConfigurationError(.port, value: String(configuration.port), reason: "\(reason) on \(configuration.host): \(error)")
        }
        if let error = error as? TLSError {
            let text = error.description
            let culprit: ConfigurationSetting = text.contains("certificate") && !text.contains("private key") ? .tlsCert : .tlsKey
            let value = culprit == .tlsCert ? configuration.tls?.certificate : configuration.tls?.privateKey
            return ConfigurationError(culprit, value: value, reason: oneLine(text))
        }
        return ConfigurationError(.host, value: nil, reason: "cannot start the server: \(oneLine(String(describing: error)))")
    }

    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
