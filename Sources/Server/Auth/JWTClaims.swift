// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The claims of a verified token the service reads (RFC 7519 §4.1), plus its own:
/// `"streamservice": {"subscribe": ["users", "profile"]}` (or `["*"]`), the pipelines
/// whose events `/events` may send the holder.
struct JWTClaims: Sendable, Equatable, Decodable {
    var subject: String?
    var issuer: String?
    /// `aud` as a list: RFC 7519 allows one string or an array.
    var audience: [String]
    /// Seconds since the epoch (NumericDate, possibly fractional).
    var expiresAt: Double?
    var notBefore: Double?
    /// The pipelines `/events` may send; nil when the token has no `streamservice.subscribe` claim.
    var subscribe: [String]?
    /// `streamservice.metrics`: the holder may read `/metrics` when it is protected.
    var metrics: Bool

    init(subject: String? = nil, issuer: String? = nil, audience: [String] = [], expiresAt: Double? = nil, notBefore: Double? = nil, subscribe: [String]? = nil, metrics: Bool = false) {
        self.subject = subject
        self.issuer = issuer
        self.audience = audience
        self.expiresAt = expiresAt
        self.notBefore = notBefore
        self.subscribe = subscribe
        self.metrics = metrics
    }

    private enum CodingKeys: String, CodingKey {
        case sub, iss, aud, exp, nbf, streamservice
    }

    private struct ServiceClaim: Decodable {
        var subscribe: [String]?
        var metrics: Bool?
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        subject = try container.decodeIfPresent(String.self, forKey: .sub)
        issuer = try container.decodeIfPresent(String.self, forKey: .iss)
        if let one = try? container.decodeIfPresent(String.self, forKey: .aud) {
            audience = [one]
        } else {
            audience = try container.decodeIfPresent([String].self, forKey: .aud) ?? []
        }
        expiresAt = try container.decodeIfPresent(Double.self, forKey: .exp)
        notBefore = try container.decodeIfPresent(Double.self, forKey: .nbf)
        let service = try container.decodeIfPresent(ServiceClaim.self, forKey: .streamservice)
        subscribe = service?.subscribe
        metrics = service?.metrics ?? false
    }

    /// Whether the holder may read events of `pipeline` on `/events`.
    func maySubscribe(to pipeline: String) -> Bool {
        guard let subscribe else { return false }
        return subscribe.contains("*") || subscribe.contains(pipeline)
    }
}
