// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

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

/// Verifies a JWS compact token (RFC 7515/7519) against the one configured key: the header's
/// `alg` must be the key's algorithm (so `none` and algorithm confusion are refused before the
/// signature is looked at), the signature must verify, and `exp`, `nbf`, `aud` and `iss` must hold.
struct JWTVerifier: Sendable {
    let key: JWTKey
    /// Tokens whose `aud` must contain this value; nil checks no audience.
    var audience: String?
    /// Tokens whose `iss` must be this value; nil checks no issuer.
    var issuer: String?
    /// Clock skew allowed between the token's issuer and this host, both ways around `exp` and `nbf`.
    let leeway: Duration
    /// `leeway` in seconds, kept: every token's check reads it.
    let leewaySeconds: Double
    /// The header segments token libraries write for the key's algorithm, as base64url text: a
    /// token carrying one needs its header neither decoded nor read (the figure:
    /// Benchmarks/README.md). Any other header takes the full reading (`JWTVerifierTests` holds
    /// that reading to accept each of these).
    let knownHeaders: [[UInt8]]

    /// 30 s: clocks kept by NTP differ by milliseconds; a minute-scale skew is a broken host, and a
    /// token's expiry should not stretch by more than a heartbeat period (15 s) or two.
    static let defaultLeeway: Duration = .seconds(30)

    /// Longest token read: a header line's worth. A real token is a few hundred bytes; the cap keeps
    /// a hostile one from costing base64 and JSON work.
    static let maximumTokenBytes = 8192

    init(key: JWTKey, audience: String? = nil, issuer: String? = nil, leeway: Duration = JWTVerifier.defaultLeeway) {
        self.key = key
        self.audience = audience
        self.issuer = issuer
        self.leeway = leeway
        leewaySeconds = leeway.seconds
        knownHeaders = Self.usualHeaders(for: key.algorithm).map { Array(Base64URL.encode(Array($0.utf8)).utf8) }
    }

    /// The headers PyJWT, jsonwebtoken and golang-jwt (`alg` then `typ`), jose and others (`alg`
    /// alone, or `typ` first) write: the same JSON whichever library signed.
    static func usualHeaders(for algorithm: JWTAlgorithm) -> [String] {
        let alg = algorithm.rawValue
        return [#"{"alg":"\#(alg)","typ":"JWT"}"#, #"{"typ":"JWT","alg":"\#(alg)"}"#, #"{"alg":"\#(alg)"}"#]
    }

    /// The token's claims, or why it is refused. `now` is seconds since the epoch.
    func verify(_ token: Substring, now: Double) -> Result<JWTClaims, AuthRefusal> {
        guard token.utf8.count <= Self.maximumTokenBytes else { return .failure(.malformed("longer than \(Self.maximumTokenBytes) bytes")) }
        // Read as bytes: finding the dots and slicing through a `Substring`'s UTF-8 view cost more
        // than the checks themselves (the figure: Benchmarks/README.md).
        var token = token
        return token.withUTF8 { verify(bytes: $0, now: now) }
    }

    private func verify(bytes token: UnsafeBufferPointer<UInt8>, now: Double) -> Result<JWTClaims, AuthRefusal> {
        let dot = UInt8(ascii: ".")
        guard let firstDot = token.firstIndex(of: dot), let secondDot = token[(firstDot + 1)...].firstIndex(of: dot),
              !token[(secondDot + 1)...].contains(dot) else {
            let parts = token.split(separator: dot, omittingEmptySubsequences: false).count
            return .failure(.malformed("expected three dot-separated parts, found \(parts)"))
        }
        func part(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: token[range]) }
        // The three parts decode into one buffer on the stack (base64url is 3/4 of its text): three
        // arrays were three allocations per new token.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: token.count) { buffer in
            var free = buffer[...]
            func decode(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8>? {
                guard let count = Base64URL.decode(part(range), into: UnsafeMutableBufferPointer(rebasing: free)) else { return nil }
                defer { free = free.dropFirst(count) }
                return UnsafeBufferPointer(rebasing: free.prefix(count))
            }
            let headerText = part(0..<firstDot)
            if !knownHeaders.contains(where: { $0.count == headerText.count && memcmp($0, headerText.baseAddress!, headerText.count) == 0 }) {
                guard let headerBytes = decode(0..<firstDot), let header = Self.header(headerBytes) else {
                    return .failure(.malformed("the header is not base64url JSON"))
                }
                if let refusal = headerRefusal(header) { return .failure(refusal) }
            }
            guard let signature = decode((secondDot + 1)..<token.count) else {
                return .failure(.malformed("the signature is not base64url"))
            }
            guard key.verifies(signature, of: part(0..<secondDot)) else { return .failure(.badSignature) }
            guard let payload = decode((firstDot + 1)..<secondDot) else { return .failure(.malformed("the payload is not base64url")) }
            guard let claims = Self.claims(payload) else {
                return .failure(.malformed("the claims are not a JSON object of the registered types"))
            }
            return check(claims, now: now).map { .failure($0) } ?? .success(claims)
        }
    }

    /// Why a token with `header` is refused before its signature is looked at; nil when it may be verified.
    func headerRefusal(_ header: JWTHeader) -> AuthRefusal? {
        guard let algorithm = header.alg else { return .malformed("the header has no alg") }
        guard algorithm == key.algorithm.rawValue else { return .algorithm(algorithm, expected: key.algorithm) }
        // RFC 7515 §4.1.11: an extension the verifier does not understand must not be ignored.
        if let critical = header.crit, !critical.isEmpty { return .malformed("unsupported critical header parameters \(critical)") }
        return nil
    }

    /// The header by `JWTHeader.read`, or by `JSONDecoder` where that declines.
    static func header(_ json: UnsafeBufferPointer<UInt8>) -> JWTHeader? {
        JWTHeader.read(json) ?? (try? JSONDecoder().decode(JWTHeader.self, from: Data(json)))
    }

    /// The claims by `JWTClaims.read`, or by `JSONDecoder` where that declines.
    private static func claims(_ json: UnsafeBufferPointer<UInt8>) -> JWTClaims? {
        JWTClaims.read(json) ?? (try? JSONDecoder().decode(JWTClaims.self, from: Data(json)))
    }

    /// Why `claims` are not acceptable at `now`; nil when they are.
    func check(_ claims: JWTClaims, now: Double) -> AuthRefusal? {
        let skew = leewaySeconds
        if let expiresAt = claims.expiresAt, now >= expiresAt + skew { return .expired }
        if let notBefore = claims.notBefore, now + skew < notBefore { return .notYetValid }
        if let audience, !claims.audience.contains(audience) { return .audience(expected: audience) }
        if let issuer, claims.issuer != issuer { return .issuer(expected: issuer) }
        return nil
    }
}
