// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import COpenSSL
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NetCore

/// The key tokens are verified with: an HS256 shared secret (`--auth-jwt-secret`), or a PEM
/// public key (`--auth-jwt-public-key`) whose type picks the algorithm: EC P-256 → ES256,
/// RSA (2048 bits or more) → RS256.
// @unchecked: the EVP_PKEY is never changed after loading; OpenSSL allows concurrent verifications with it, each with its own context.
final class JWTKey: @unchecked Sendable {
    struct Invalid: Error, Equatable, CustomStringConvertible {
        let description: String
    }

    let algorithm: JWTAlgorithm
    /// HS256's secret, keyed once.
    private let hmac: MessageDigest.HMAC?
    private let publicKey: OpaquePointer?

    /// 32 bytes: RFC 7518 §3.2 requires an HS256 key of at least the hash's size.
    static let minimumSecretBytes = 32
    /// NIST SP 800-57's floor for RSA today.
    static let minimumRSABits = 2048

    init(secret: String) throws(Invalid) {
        guard secret.utf8.count >= Self.minimumSecretBytes else {
            throw Invalid(description: "an HS256 secret needs at least \(Self.minimumSecretBytes) bytes (RFC 7518 §3.2), got \(secret.utf8.count)")
        }
        guard let hmac = MessageDigest.HMAC(key: Array(secret.utf8), digest: .sha256) else {
            throw Invalid(description: "OpenSSL could not key HMAC-SHA256 with the secret")
        }
        algorithm = .hs256
        self.hmac = hmac
        publicKey = nil
    }

    /// A PEM `PUBLIC KEY` (SubjectPublicKeyInfo), as `openssl pkey -pubout` writes it.
    init(pem: [UInt8]) throws(Invalid) {
        let key: OpaquePointer? = pem.withUnsafeBytes { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_PUBKEY(bio, nil, nil, nil)
        }
        ERR_clear_error()
        guard let key else { throw Invalid(description: "not a PEM public key (expected -----BEGIN PUBLIC KEY-----)") }
        let type = EVP_PKEY_get_base_id(key), bits = EVP_PKEY_get_bits(key)
        switch type {
        case EVP_PKEY_EC where bits == 256:
            algorithm = .es256
        case EVP_PKEY_RSA where bits >= Self.minimumRSABits:
            algorithm = .rs256
        case EVP_PKEY_RSA:
            EVP_PKEY_free(key)
            throw Invalid(description: "an RSA key of \(bits) bits; RS256 needs at least \(Self.minimumRSABits)")
        default:
            EVP_PKEY_free(key)
            throw Invalid(description: "an unsupported key (\(bits) bits); expected an EC P-256 (ES256) or RSA (RS256) public key")
        }
        hmac = nil
        publicKey = key
    }

    deinit {
        if let publicKey { EVP_PKEY_free(publicKey) }
    }

    /// Whether `signature` signs `input` under this key, with `algorithm`.
    func verifies(_ signature: UnsafeBufferPointer<UInt8>, of message: UnsafeBufferPointer<UInt8>) -> Bool {
        switch algorithm {
        case .hs256: hmacMatches(signature, message)
        case .rs256: digestVerifies(signature, message)
        case .es256:
            // JWS carries an ECDSA signature as the raw 32-byte r and s (RFC 7518 §3.4); OpenSSL wants DER.
            Self.derECDSASignature(rawRS: Array(signature)).map { der in der.withUnsafeBufferPointer { digestVerifies($0, message) } } ?? false
        }
    }

    private func hmacMatches(_ signature: UnsafeBufferPointer<UInt8>, _ message: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let hmac, signature.count == hmac.byteCount else { return false }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: hmac.byteCount) { mac in
            // Constant time, so the comparison leaks nothing about how much of a forgery matched.
            hmac.mac(message, into: mac) && CRYPTO_memcmp(mac.baseAddress, signature.baseAddress, hmac.byteCount) == 0
        }
    }

    private func digestVerifies(_ signature: UnsafeBufferPointer<UInt8>, _ message: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let publicKey, let context = EVP_MD_CTX_new() else { return false }
        defer {
            EVP_MD_CTX_free(context)
            ERR_clear_error()
        }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, publicKey) == 1 else { return false }
        return EVP_DigestVerify(context, signature.baseAddress, signature.count, message.baseAddress, message.count) == 1
    }

    /// The DER `ECDSA-Sig-Value` of a raw P-256 `r || s`; nil unless it is 64 bytes.
    static func derECDSASignature(rawRS: [UInt8]) -> [UInt8]? {
        guard rawRS.count == 64, let signature = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(signature) }
        let r = rawRS.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, 32, nil) }
        let s = rawRS.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress! + 32, 32, nil) }
        guard let r, let s else {
            BN_free(r)
            BN_free(s)
            return nil
        }
        // On success the signature owns r and s.
        guard ECDSA_SIG_set0(signature, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            return nil
        }
        let length = i2d_ECDSA_SIG(signature, nil)
        guard length > 0 else { return nil }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return i2d_ECDSA_SIG(signature, &cursor)
        }
        return written == length ? der : nil
    }
}
