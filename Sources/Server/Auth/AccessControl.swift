// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import CoreMetrics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTP
import StreamServiceConcurrency
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
    private let protectedBits: UInt8
    let cookie: String?
    let proxies: TrustedProxies
    private let refusals: [String: Counter]
    private let clock: @Sendable () -> Double
    /// Tokens read with `verifier`; the `protected` areas need one.
    convenience init(
        verifier: JWTVerifier, protected: Set<ProtectedArea>, cookie: String?, proxies: TrustedProxies,
        factory: any MetricsFactory, clock: @escaping @Sendable () -> Double = CoarseClock.now
    ) {
        self.init(tokens: verifier, protected: protected, cookie: cookie, proxies: proxies, factory: factory, clock: clock)
    }

    /// No key: the client's address is its identity, and nothing can be protected. There is no
    /// way to ask for protection without a verifier, so none can be dropped for want of one.
    convenience init(proxies: TrustedProxies, factory: any MetricsFactory) {
        self.init(tokens: nil, protected: [], cookie: nil, proxies: proxies, factory: factory, clock: CoarseClock.now)
    }

    private init(
        tokens verifier: JWTVerifier?, protected: Set<ProtectedArea>, cookie: String?, proxies: TrustedProxies,
        factory: any MetricsFactory, clock: @escaping @Sendable () -> Double
    ) {
        self.verifier = verifier
        self.protected = protected
        protectedBits = protected.reduce(0) { $0 | $1.bit }
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
        guard let verifier else { return .success(Caller(request, trusting: proxies, claims: nil)) }
        let needsToken = area.map(protects) ?? false
        guard let token = BearerToken.find(in: request, cookie: cookie) else {
            return needsToken ? countRefusal(.missing) : .success(Caller(request, trusting: proxies, claims: nil))
        }
        // Every request's token is verified, none remembered: a verification costs a few microseconds,
        // most of them the HMAC, where a table of verified tokens cost every new token more, a lock
        // shared by the loops, and memory per subscriber (the figure: Benchmarks/README.md).
        switch verifier.verify(token, now: clock()) {
        case .success(let claims):
            return .success(Caller(request, trusting: proxies, claims: claims))
        case .failure(let refusal):
            // Where no token is needed, a bad one counts for nothing: the request is anonymous.
            return needsToken ? countRefusal(refusal) : .success(Caller(request, trusting: proxies, claims: nil))
        }
    }

    /// Counts `refusal` under its reason (`auth_refusals_total`) and gives it back as the failure to answer with.
    @discardableResult
    func countRefusal(_ refusal: AuthRefusal) -> Result<Caller, AuthRefusal> {
        refusals[refusal.reason]?.increment()
        return .failure(refusal)
    }

    /// Whether `area` needs a token.
    func protects(_ area: ProtectedArea) -> Bool { protectedBits & area.bit != 0 }

    /// Runs `handler` for an admitted caller, or answers the refusal.
    func guarded(_ request: Request, _ area: ProtectedArea?, _ handler: (Request, Caller) -> DataStream<Response>) -> DataStream<Response> {
        switch caller(of: request, for: area) {
        case .success(let caller):
            // A client-chosen request id that is a token must not reach /events' other subscribers.
            guard SecretRedaction.looksLikeJWT(request.id) else { return handler(request, caller) }
            var redacted = request
            redacted.id = SecretRedaction.placeholder
            return handler(redacted, caller)
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
