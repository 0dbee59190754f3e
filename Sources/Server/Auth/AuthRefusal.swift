// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP

/// Why a request was refused access: a 401 for a missing or invalid token (RFC 6750 §3.1
/// `invalid_token`, or no error code when none was sent), a 403 for a valid token without the claim.
enum AuthRefusal: Error, Sendable, Equatable {
    case missing
    case malformed(String)
    /// The header names an algorithm other than the configured key's (`none` included).
    case algorithm(String, expected: JWTAlgorithm)
    case badSignature
    case expired
    case notYetValid
    case audience(expected: String)
    case issuer(expected: String)
    /// Valid, but without the claim the resource needs.
    case forbidden(String)

    /// The `reason` label of `auth_refusals_total`.
    var reason: String {
        switch self {
        case .missing: "missing"
        case .malformed: "malformed"
        case .algorithm: "algorithm"
        case .badSignature: "signature"
        case .expired: "expired"
        case .notYetValid: "not_yet_valid"
        case .audience: "audience"
        case .issuer: "issuer"
        case .forbidden: "forbidden"
        }
    }

    static let reasons = ["missing", "malformed", "algorithm", "signature", "expired", "not_yet_valid", "audience", "issuer", "forbidden"]

    var detail: String {
        switch self {
        case .missing: "This resource needs a bearer token (Authorization: Bearer, the access cookie or ?access_token=)"
        case .malformed(let why): "The token is malformed: \(why)"
        case .algorithm(let algorithm, let expected): "The token's algorithm \(algorithm) is not accepted; expected \(expected.rawValue)"
        case .badSignature: "The token's signature does not verify"
        case .expired: "The token has expired"
        case .notYetValid: "The token is not valid yet (nbf)"
        case .audience(let expected): "The token is not meant for this service (aud must include \(expected))"
        case .issuer(let expected): "The token is not from the expected issuer (iss must be \(expected))"
        case .forbidden(let what): "The token does not grant \(what)"
        }
    }

    var status: HTTPStatus {
        if case .forbidden = self { return .forbidden }
        return .unauthorized
    }

    /// RFC 6750 §3: a request without a token gets the bare challenge; a bad token `invalid_token`;
    /// a token lacking the claim `insufficient_scope`.
    var challenge: String {
        switch self {
        case .missing: #"Bearer realm="stream-service""#
        case .forbidden: #"Bearer realm="stream-service", error="insufficient_scope", error_description="\#(Self.quoted(detail))""#
        default: #"Bearer realm="stream-service", error="invalid_token", error_description="\#(Self.quoted(detail))""#
        }
    }

    func response(instance: String) -> Response {
        var headers = HTTPHeaders()
        headers.add(name: "WWW-Authenticate", value: challenge)
        headers.add(name: "Cache-Control", value: "no-store")
        return .problem(status: status, detail: detail, instance: instance, headers: headers)
    }

    /// RFC 6750 §3: `error_description` is printable ASCII without `"` and `\`.
    private static func quoted(_ text: String) -> String {
        String(text.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F && $0 != "\"" && $0 != "\\" ? Character($0) : "'" })
    }
}
