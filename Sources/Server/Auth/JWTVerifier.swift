#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
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
    var leeway: Duration

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
    }

    private struct Header: Decodable {
        var alg: String?
        var crit: [String]?
    }

    /// The token's claims, or why it is refused. `now` is seconds since the epoch.
    func verify(_ token: Substring, now: Double) -> Result<JWTClaims, AuthRefusal> {
        guard token.utf8.count <= Self.maximumTokenBytes else { return .failure(.malformed("longer than \(Self.maximumTokenBytes) bytes")) }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return .failure(.malformed("expected three dot-separated parts, found \(parts.count)")) }
        guard let headerBytes = Base64URL.decode(parts[0]), let header = try? JSONDecoder().decode(Header.self, from: Data(headerBytes)) else {
            return .failure(.malformed("the header is not base64url JSON"))
        }
        guard let algorithm = header.alg else { return .failure(.malformed("the header has no alg")) }
        guard algorithm == key.algorithm.rawValue else { return .failure(.algorithm(algorithm, expected: key.algorithm)) }
        // RFC 7515 §4.1.11: an extension the verifier does not understand must not be ignored.
        if let critical = header.crit, !critical.isEmpty { return .failure(.malformed("unsupported critical header parameters \(critical)")) }
        guard let signature = Base64URL.decode(parts[2]) else { return .failure(.malformed("the signature is not base64url")) }
        let signingInput = token[token.startIndex..<parts[1].endIndex]
        guard key.verifies(signature, of: signingInput) else { return .failure(.badSignature) }
        guard let payload = Base64URL.decode(parts[1]) else { return .failure(.malformed("the payload is not base64url")) }
        let claims: JWTClaims
        do {
            claims = try JSONDecoder().decode(JWTClaims.self, from: Data(payload))
        } catch {
            return .failure(.malformed("the claims are not a JSON object of the registered types"))
        }
        return check(claims, now: now).map { .failure($0) } ?? .success(claims)
    }

    /// Why `claims` are not acceptable at `now`; nil when they are.
    func check(_ claims: JWTClaims, now: Double) -> AuthRefusal? {
        let skew = Double(leeway.components.seconds) + Double(leeway.components.attoseconds) / 1e18
        if let expiresAt = claims.expiresAt, now >= expiresAt + skew { return .expired }
        if let notBefore = claims.notBefore, now + skew < notBefore { return .notYetValid }
        if let audience, !claims.audience.contains(audience) { return .audience(expected: audience) }
        if let issuer, claims.issuer != issuer { return .issuer(expected: issuer) }
        return nil
    }
}
