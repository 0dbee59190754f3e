// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP

/// Where a request's bearer token comes from, in RFC 6750's order: the `Authorization: Bearer`
/// field (§2.1), then the access cookie (`--auth-cookie`: a browser's `EventSource` cannot send
/// headers, but sends its cookies), then the `access_token` query parameter (§2.3).
enum BearerToken {
    static let queryParameter = "access_token"

    /// The token the request carries, or nil when it carries none.
    static func find(in request: Request, cookie: String?) -> Substring? {
        if let authorization = request.headers["Authorization"], let token = fromAuthorization(authorization) { return token }
        if let cookie, let token = fromCookies(request.headers.values(for: "Cookie"), named: cookie) { return token }
        if let token = request.query[queryParameter], !token.isEmpty { return Substring(token) }
        return nil
    }

    /// `Bearer <token>`, the scheme in any case (RFC 9110 §11.1), read as bytes: every request with
    /// a token pays this, and trimming and lowercasing through `Character`s cost more (the figure:
    /// Benchmarks/README.md). Where a non-ASCII byte could make `Character`s or Unicode whitespace
    /// decide (at either end, or where the token starts), the plain twin
    /// `fromAuthorizationByCharacters` answers; `BearerTokenTests` holds them equal.
    static func fromAuthorization(_ value: String) -> Substring? {
        let bytes = value.utf8
        func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        var start = bytes.startIndex, end = bytes.endIndex
        while start < end, isBlank(bytes[start]) { bytes.formIndex(after: &start) }
        while start < end, isBlank(bytes[bytes.index(before: end)]) { bytes.formIndex(before: &end) }
        guard start < end else { return nil }
        guard bytes[start] < 0x80, bytes[bytes.index(before: end)] < 0x80 else { return fromAuthorizationByCharacters(value) }
        var index = start
        for expected in "bearer ".utf8 {
            // `| 0x20` lowercases a letter; only `B`/`b` (and so on) give the lowercase letter.
            guard index < end, bytes[index] | (expected == 0x20 ? 0 : 0x20) == expected else { return nil }
            bytes.formIndex(after: &index)
        }
        while index < end, bytes[index] == 0x20 { bytes.formIndex(after: &index) }
        guard index < end else { return nil }
        guard bytes[index] < 0x80 else { return fromAuthorizationByCharacters(value) }
        return value[index..<end]
    }

    /// `fromAuthorization` through `Character`s: the plain twin.
    static func fromAuthorizationByCharacters(_ value: String) -> Substring? {
        let trimmed = value.trimmingWhitespace()
        guard trimmed.utf8.count > 7, trimmed.prefix(7).lowercased() == "bearer " else { return nil }
        let token = trimmed.dropFirst(7).drop { $0 == " " }
        return token.isEmpty ? nil : Substring(token)
    }

    /// The value of cookie `name` in `Cookie` fields (`a=1; b=2`, RFC 6265 §5.4).
    static func fromCookies(_ fields: [String], named name: String) -> Substring? {
        for field in fields {
            for pair in field.split(separator: ";") {
                let pair = pair.drop { $0 == " " }
                guard let equals = pair.firstIndex(of: "="), pair[..<equals] == name else { continue }
                var value = pair[pair.index(after: equals)...]
                if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = value.dropFirst().dropLast() }
                if !value.isEmpty { return value }
            }
        }
        return nil
    }
}
