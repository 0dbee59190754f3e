// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// A TLS protocol version, as OpenSSL numbers them.
public enum TLSVersion: Int32, Sendable, Comparable {
    case tls1_0 = 0x0301
    case tls1_1 = 0x0302
    case tls1_2 = 0x0303
    case tls1_3 = 0x0304

    public static func < (lhs: TLSVersion, rhs: TLSVersion) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// How to set up TLS for one side of a connection.
public struct TLSConfiguration: Sendable {
    public enum Role: Sendable {
        /// Serve with a PEM certificate chain and its PEM private key.
        case server(certificateChainFile: String, privateKeyFile: String)
        /// Connect and verify the server (system CAs plus `trustedCAFile`, hostname checked).
        case client
    }

    public var role: Role
    /// Oldest version accepted; TLS 1.2 unless a test needs otherwise.
    public var minimumVersion: TLSVersion = .tls1_2
    public var maximumVersion: TLSVersion?
    /// Extra PEM CA bundle to trust (clients), e.g. a test's self-signed certificate.
    public var trustedCAFile: String?
    /// Clients verify the server's chain and hostname unless this is false.
    public var verifyPeer: Bool = true
    /// An OpenSSL cipher string for TLS ≤ 1.2, e.g. `DEFAULT:@SECLEVEL=0`.
    public var cipherList: String?
    /// TLS 1.3 suites (`SSL_CTX_set_ciphersuites` syntax); nil keeps OpenSSL's.
    public var cipherSuites: String?
    /// Key-exchange groups, e.g. `X25519:P-256:P-384`; nil keeps OpenSSL's.
    public var groups: String?
    /// ALPN: a server answers the first of these the client also offers (and refuses a
    /// client that offers none of them); a client offers them. Empty: no ALPN.
    public var alpnProtocols: [String] = []

    public init(role: Role) {
        self.role = role
    }

    /// A server on `profile` (Mozilla's intermediate one unless told otherwise) that speaks HTTP/1.1.
    public static func server(certificateChainFile: String, privateKeyFile: String, profile: TLSProfile = .mozillaIntermediate) -> TLSConfiguration {
        var configuration = TLSConfiguration(role: .server(certificateChainFile: certificateChainFile, privateKeyFile: privateKeyFile))
        configuration.apply(profile)
        configuration.alpnProtocols = ["http/1.1"]
        return configuration
    }

    public mutating func apply(_ profile: TLSProfile) {
        minimumVersion = profile.minimumVersion
        cipherList = profile.cipherList
        cipherSuites = profile.cipherSuites
        groups = profile.groups
    }

    public static func client(trustedCAFile: String? = nil, verifyPeer: Bool = true) -> TLSConfiguration {
        var configuration = TLSConfiguration(role: .client)
        configuration.trustedCAFile = trustedCAFile
        configuration.verifyPeer = verifyPeer
        configuration.alpnProtocols = ["http/1.1"]
        return configuration
    }

    public var isServer: Bool {
        if case .server = role { return true }
        return false
    }
}
