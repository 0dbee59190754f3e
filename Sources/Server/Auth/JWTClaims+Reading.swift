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
        var subject: String??, issuer: String??, audience: [String]??, expiresAt: Double??, notBefore: Double??
        var service: (subscribe: [String]?, metrics: Bool?)??
        guard reader.take(UInt8(ascii: "{")) else { return nil }
        if !reader.take(UInt8(ascii: "}")) {
            repeat {
                guard let key = reader.key(), reader.take(UInt8(ascii: ":")) else { return nil }
                switch JWTName(key) {
                case .sub?:
                    guard subject == nil, let value = reader.optional({ $0.string() }) else { return nil }
                    subject = value
                case .iss?:
                    guard issuer == nil, let value = reader.optional({ $0.string() }) else { return nil }
                    issuer = value
                case .aud?:
                    guard audience == nil, let value = reader.optional({ $0.string().map { [$0] } ?? $0.strings() }) else { return nil }
                    audience = value
                case .exp?:
                    guard expiresAt == nil, let value = reader.optional({ $0.double() }) else { return nil }
                    expiresAt = value
                case .nbf?:
                    guard notBefore == nil, let value = reader.optional({ $0.double() }) else { return nil }
                    notBefore = value
                case .streamservice?:
                    guard service == nil, let value = reader.optional({ $0.serviceClaim() }) else { return nil }
                    service = value
                default:
                    guard reader.skipValue(depth: 0) else { return nil }
                }
            } while reader.take(UInt8(ascii: ","))
            guard reader.take(UInt8(ascii: "}")) else { return nil }
        }
        guard reader.atEnd() else { return nil }
        let claim = service ?? nil
        return JWTClaims(
            subject: subject ?? nil, issuer: issuer ?? nil, audience: (audience ?? nil) ?? [], expiresAt: expiresAt ?? nil,
            notBefore: notBefore ?? nil, subscribe: claim?.subscribe, metrics: claim?.metrics ?? false)
    }
}

private extension JSONReader {
    /// `"streamservice": {"subscribe": [...], "metrics": true}`, either member possibly absent or `null`.
    mutating func serviceClaim() -> (subscribe: [String]?, metrics: Bool?)? {
        var subscribe: [String]??, metrics: Bool??
        guard take(UInt8(ascii: "{")) else { return nil }
        if !take(UInt8(ascii: "}")) {
            repeat {
                guard let key = key(), take(UInt8(ascii: ":")) else { return nil }
                switch JWTName(key) {
                case .subscribe?:
                    guard subscribe == nil, let value = optional({ $0.strings() }) else { return nil }
                    subscribe = value
                case .metrics?:
                    guard metrics == nil, let value = optional({ $0.boolean() }) else { return nil }
                    metrics = value
                default:
                    guard skipValue(depth: 0) else { return nil }
                }
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")) else { return nil }
        }
        return (subscribe ?? nil, metrics ?? nil)
    }
}
