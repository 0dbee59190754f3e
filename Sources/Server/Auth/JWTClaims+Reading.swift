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
        let read = reader.object { reader, key in
            switch JWTName(key) {
            case .sub?: reader.once(&subject) { $0.string() }
            case .iss?: reader.once(&issuer) { $0.string() }
            case .aud?: reader.once(&audience) { $0.string().map { [$0] } ?? $0.strings() }
            case .exp?: reader.once(&expiresAt) { $0.double() }
            case .nbf?: reader.once(&notBefore) { $0.double() }
            case .streamservice?: reader.once(&service) { $0.serviceClaim() }
            default: reader.skipValue(depth: 0)
            }
        }
        guard read, reader.atEnd() else { return nil }
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
        let read = object { reader, key in
            switch JWTName(key) {
            case .subscribe?: reader.once(&subscribe) { $0.strings() }
            case .metrics?: reader.once(&metrics) { $0.boolean() }
            default: reader.skipValue(depth: 0)
            }
        }
        return read ? (subscribe ?? nil, metrics ?? nil) : nil
    }
}
