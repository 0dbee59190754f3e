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

    /// `Bearer <token>`, the scheme in any case (RFC 9110 §11.1).
    static func fromAuthorization(_ value: String) -> Substring? {
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
