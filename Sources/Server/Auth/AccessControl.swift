import CoreMetrics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTP
import Streams

/// Decides who a request comes from and whether it may have what it asks for: the client
/// address through trusted proxies, the bearer token when one is configured, and the areas
/// `--auth-protect` puts behind a token. A refusal is counted in `auth_refusals_total` by reason.
final class AccessControl: Sendable {
    static let refusalsName = "auth_refusals_total"
    static let descriptions = [
        MetricDescription(refusalsName, help: "Requests refused a protected resource (401/403), by reason."),
    ]

    let verifier: JWTVerifier?
    let protected: Set<ProtectedArea>
    let cookie: String?
    let proxies: TrustedProxies
    private let refusals: [String: Counter]
    private let clock: @Sendable () -> Double
    private let verified = VerifiedTokens(capacity: AccessControl.verifiedCapacity)
    static let verifiedCapacity = 10_000

    init(
        verifier: JWTVerifier?, protected: Set<ProtectedArea>, cookie: String?, proxies: TrustedProxies,
        factory: any MetricsFactory, clock: @escaping @Sendable () -> Double = CoarseClock.now
    ) {
        self.verifier = verifier
        self.protected = verifier == nil ? [] : protected
        self.cookie = cookie
        self.proxies = proxies
        self.clock = clock
        // Every reason exists from the start, so a dashboard sees zeros rather than gaps.
        refusals = Dictionary(uniqueKeysWithValues: AuthRefusal.reasons.map {
            ($0, Counter(label: Self.refusalsName, dimensions: [("reason", $0)], factory: factory))
        })
    }

    /// Whether tokens are read at all; without a key a route needs no caller unless it keeps budgets.
    var readsTokens: Bool { verifier != nil }

    /// The caller, or the refusal to answer with when `area` needs a token it did not present validly.
    func caller(of request: Request, for area: ProtectedArea?) -> Result<Caller, AuthRefusal> {
        let anonymous = Caller(request, trusting: proxies, claims: nil)
        guard let verifier else { return .success(anonymous) }
        let needsToken = area.map { protected.contains($0) } ?? false
        guard let token = BearerToken.find(in: request, cookie: cookie) else {
            return needsToken ? refuse(.missing) : .success(anonymous)
        }
        switch verify(token, with: verifier) {
        case .success(let claims):
            return .success(Caller(request, trusting: proxies, claims: claims))
        case .failure(let refusal):
            // Where no token is needed, a bad one counts for nothing: the request is anonymous.
            return needsToken ? refuse(refusal) : .success(anonymous)
        }
    }

    /// `verifier.verify`, remembering the claims of tokens that verified.
    private func verify(_ token: Substring, with verifier: JWTVerifier) -> Result<JWTClaims, AuthRefusal> {
        let now = clock()
        if let claims = verified.claims(of: token) {
            return verifier.check(claims, now: now).map { .failure($0) } ?? .success(claims)
        }
        let result = verifier.verify(token, now: now)
        if case .success(let claims) = result { verified.remember(claims, of: token) }
        return result
    }

    func refuse(_ refusal: AuthRefusal) -> Result<Caller, AuthRefusal> {
        refusals[refusal.reason]?.increment()
        return .failure(refusal)
    }

    /// Whether `area` needs a token.
    func protects(_ area: ProtectedArea) -> Bool { protected.contains(area) }

    /// Runs `handler` for an admitted caller, or answers the refusal.
    func guarded(_ request: Request, _ area: ProtectedArea?, _ handler: (Request, Caller) -> DataStream<Response>) -> DataStream<Response> {
        switch caller(of: request, for: area) {
        case .success(let caller):
            var request = request
            // A client-chosen request id that is a token must not reach /events' other subscribers.
            if SecretRedaction.looksLikeJWT(request.id) { request.id = SecretRedaction.placeholder }
            return handler(request, caller)
        case .failure(let refusal):
            return .just(refusal.response(instance: request.path))
        }
    }

    /// Seconds from now until the token in `claims` expires (its leeway included); nil without `exp`.
    func secondsUntilExpiry(of claims: JWTClaims) -> Double? {
        guard let verifier, let expiresAt = claims.expiresAt else { return nil }
        return max(0, expiresAt + verifier.leewaySeconds - clock())
    }
}
