// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Scheme, host and port of a URL (RFC 6454): the unit a credential is scoped to. A token
/// for `https://api.github.com` must not reach `http://api.github.com`, another port, or
/// `avatars.githubusercontent.com`.
public struct UpstreamOrigin: Sendable, Hashable, CustomStringConvertible {
    public let scheme: String
    public let host: String
    public let port: Int

    public init(_ url: URL) {
        scheme = url.scheme?.lowercased() ?? ""
        host = url.host?.lowercased() ?? ""
        port = url.port ?? (scheme == "https" ? 443 : 80)
    }

    public var description: String { "\(scheme)://\(host):\(port)" }
}
