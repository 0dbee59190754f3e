import HTTP

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
        var claims = JWTClaims(), seen = JWTName.Seen()
        guard reader.take(UInt8(ascii: "{")) else { return nil }
        if !reader.take(UInt8(ascii: "}")) {
            repeat {
                guard let key = reader.key(), reader.take(UInt8(ascii: ":")) else { return nil }
                guard let name = JWTName(key), name.object == .claims else {
                    guard reader.skipValue(depth: 0) else { return nil }
                    continue
                }
                // `null` is a member without a value (as `decodeIfPresent` reads it).
                guard seen.insert(name) else { return nil }
                if reader.literal("null") { continue }
                switch name {
                case .sub:
                    guard let value = reader.string() else { return nil }
                    claims.subject = value
                case .iss:
                    guard let value = reader.string() else { return nil }
                    claims.issuer = value
                case .aud:
                    guard let value = reader.string().map({ [$0] }) ?? reader.strings() else { return nil }
                    claims.audience = value
                case .exp:
                    guard let value = reader.double() else { return nil }
                    claims.expiresAt = value
                case .nbf:
                    guard let value = reader.double() else { return nil }
                    claims.notBefore = value
                default:
                    guard reader.serviceClaim(into: &claims) else { return nil }
                }
            } while reader.take(UInt8(ascii: ","))
            guard reader.take(UInt8(ascii: "}")) else { return nil }
        }
        guard reader.atEnd() else { return nil }
        return claims
    }
}

private extension JSONReader {
    /// `"streamservice": {"subscribe": [...], "metrics": true}`, either member possibly absent or `null`.
    mutating func serviceClaim(into claims: inout JWTClaims) -> Bool {
        var seen = JWTName.Seen()
        guard take(UInt8(ascii: "{")) else { return false }
        if !take(UInt8(ascii: "}")) {
            repeat {
                guard let key = key(), take(UInt8(ascii: ":")) else { return false }
                guard let name = JWTName(key), name.object == .serviceClaim else {
                    guard skipValue(depth: 0) else { return false }
                    continue
                }
                guard seen.insert(name) else { return false }
                if literal("null") { continue }
                if name == .subscribe {
                    guard let value = strings() else { return false }
                    claims.subscribe = value
                } else {
                    guard let value = boolean() else { return false }
                    claims.metrics = value
                }
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")) else { return false }
        }
        return true
    }
}
