// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The access-control part of the configuration (`--auth-*`): off unless a key is given.
public struct AuthSettings: Sendable, Equatable {
    public enum Key: Sendable, Equatable {
        /// HS256 with this shared secret.
        case secret(String)
        /// ES256 or RS256 with the PEM public key in this file, read when the verifier is built.
        case publicKeyFile(String)
        /// ES256 or RS256 with this PEM public key, read from `file` once when the configuration
        /// was resolved: a second read at start could find the file mid-rewrite.
        case publicKey(pem: [UInt8], file: String)
    }

    public var key: Key
    /// What needs a token; empty (`--auth-protect none`, said explicitly) = tokens are read for
    /// the client's identity but nothing needs one. A key given alone protects every area.
    var protected: Set<ProtectedArea>
    /// The cookie a browser's `EventSource` sends the token in; nil = no cookie is read.
    public var cookie: String?
    public var audience: String?
    public var issuer: String?
    public var leeway: Duration = JWTVerifier.defaultLeeway

    /// 64 KiB: a PEM public key is under 2 KiB; anything far larger is the wrong file.
    static let maximumKeyFileBytes = 64 << 10

    init(key: Key, protected: Set<ProtectedArea> = [], cookie: String? = nil, audience: String? = nil, issuer: String? = nil) {
        self.key = key
        self.protected = protected
        self.cookie = cookie
        self.audience = audience
        self.issuer = issuer
    }

    /// The verifier these settings describe; throws when the key file is unusable.
    func verifier() throws(JWTKey.Invalid) -> JWTVerifier {
        let key: JWTKey
        switch self.key {
        case .secret(let secret):
            key = try JWTKey(secret: secret)
        case .publicKeyFile(let path):
            key = try JWTKey(pem: try Self.readKeyFile(path))
        case .publicKey(let pem, _):
            key = try JWTKey(pem: pem)
        }
        return JWTVerifier(key: key, audience: audience, issuer: issuer, leeway: leeway)
    }

    /// The bytes of a PEM key file, refused when unreadable or far larger than a key.
    static func readKeyFile(_ path: String) throws(JWTKey.Invalid) -> [UInt8] {
        guard let pem = FileManager.default.contents(atPath: path).map(Array.init), pem.count < maximumKeyFileBytes else {
            throw JWTKey.Invalid(description: "cannot read \(path)")
        }
        return pem
    }
}
