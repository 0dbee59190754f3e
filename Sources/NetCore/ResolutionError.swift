// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A host name that did not resolve, in the resolver's words: `cannot resolve api.github.com:
/// Name or service not known`. Not a `SocketError`: `getaddrinfo` reports its own codes
/// (`EAI_*`, read with `gai_strerror`), and an errno beside them would describe nothing.
public struct ResolutionError: Error, Sendable, CustomStringConvertible, Equatable {
    public let host: String
    /// `getaddrinfo`'s `EAI_*` code.
    public let code: Int32
    /// What went wrong, e.g. `Name or service not known`.
    public let reason: String

    public init(host: String, code: Int32, reason: String) {
        self.host = host
        self.code = code
        self.reason = reason
    }

    /// The error `getaddrinfo(host, …)` reported as `status`; `EAI_SYSTEM` is explained by `errno`.
    init(host: String, status: Int32, errno systemError: Int32 = errno) {
        let reason = status == EAI_SYSTEM ? String(cString: strerror(systemError)) : String(cString: gai_strerror(status))
        self.init(host: host, code: status, reason: reason)
    }

    public var description: String { "cannot resolve \(host): \(reason)" }
}
