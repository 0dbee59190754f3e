// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceJSON

extension JWTClaims {
    /// The claims read straight from the payload's JSON bytes: a new subscriber's token was
    /// decoded with `JSONDecoder` twice (header and claims), the larger part of its connect's
    /// verification (Benchmarks/README.md, issue 28). nil for anything but a plain object whose
    /// `sub`/`iss` are strings, `aud` a string or an array of strings, `exp`/`nbf` numbers,
    /// `streamservice` an object with `subscribe` (strings) and `metrics` (a boolean), each
    /// possibly `null`, other members skipped — and for a repeated member. The caller then
    /// decodes with `JSONDecoder` (`init(from:)`, the plain twin; `JWTJSONReadingTests` holds
    /// them equal), whose answer or error stands.
    static func read(_ json: UnsafeBufferPointer<UInt8>) -> JWTClaims? {
        var reader = JSONReader(bytes: json)
        var claims = JWTClaims()
        let read = reader.tokenObject(.claims) { reader, name in
            switch name {
            case .sub:
                guard let value = reader.string() else { return false }
                claims.subject = value
            case .iss:
                guard let value = reader.string() else { return false }
                claims.issuer = value
            case .aud:
                guard let value = reader.string().map({ [$0] }) ?? reader.strings() else { return false }
                claims.audience = value
            case .exp:
                guard let value = reader.double() else { return false }
                claims.expiresAt = value
            case .nbf:
                guard let value = reader.double() else { return false }
                claims.notBefore = value
            default:
                // `"streamservice": {"subscribe": [...], "metrics": true}`.
                return reader.tokenObject(.serviceClaim) { reader, name in
                    if name == .subscribe {
                        guard let value = reader.strings() else { return false }
                        claims.subscribe = value
                    } else {
                        guard let value = reader.boolean() else { return false }
                        claims.metrics = value
                    }
                    return true
                }
            }
            return true
        }
        guard read, reader.atEnd() else { return nil }
        return claims
    }
}
