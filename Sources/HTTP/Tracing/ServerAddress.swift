// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `server.address` and `server.port` of a CLIENT span (OpenTelemetry's HTTP client names) for
/// the URL it requests: read in the one pass `URLParts` makes over the URL's string, where
/// Foundation's `host` and `port` parse the URL again per call; Foundation's answers for a URL
/// that pass does not take (user info, IP literals).
public enum ServerAddress {
    /// The host and the port (the scheme's default without one); nil without a host.
    public static func of(_ url: URL) -> (host: String, port: Int)? {
        if let parts = URLParts(url) { return (parts.host, parts.port ?? (parts.secure ? 443 : 80)) }
        guard let host = url.host else { return nil }
        return (host, url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80))
    }
}
