// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Which protocol versions, cipher suites and key-exchange groups a TLS server allows.
public struct TLSProfile: Sendable, Equatable {
    public var minimumVersion: TLSVersion
    /// TLS 1.2 suites, in OpenSSL cipher-list syntax.
    public var cipherList: String
    /// TLS 1.3 suites, in OpenSSL `SSL_CTX_set_ciphersuites` syntax.
    public var cipherSuites: String
    /// Key-exchange groups, colon-separated.
    public var groups: String

    public init(minimumVersion: TLSVersion, cipherList: String, cipherSuites: String, groups: String) {
        self.minimumVersion = minimumVersion
        self.cipherList = cipherList
        self.cipherSuites = cipherSuites
        self.groups = groups
    }

    /// Mozilla's "intermediate" profile (ssl-config.mozilla.org, guidelines 5.7): TLS 1.2 and 1.3;
    /// for TLS 1.2 only forward-secret ECDHE key exchange with AEAD ciphers (no static RSA, no CBC,
    /// and, narrower than Mozilla's list, no finite-field DHE); the three TLS 1.3 suites; groups
    /// X25519, P-256 and P-384 (no X448, no P-521, which few clients offer and none need).
    public static let mozillaIntermediate = TLSProfile(
        minimumVersion: .tls1_2,
        cipherList: [
            "ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-RSA-AES128-GCM-SHA256",
            "ECDHE-ECDSA-AES256-GCM-SHA384", "ECDHE-RSA-AES256-GCM-SHA384",
            "ECDHE-ECDSA-CHACHA20-POLY1305", "ECDHE-RSA-CHACHA20-POLY1305",
        ].joined(separator: ":"),
        cipherSuites: "TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256",
        groups: "X25519:P-256:P-384"
    )
}
