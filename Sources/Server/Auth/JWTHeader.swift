import HTTP

/// The JOSE header fields a verifier reads (RFC 7515 §4.1): the algorithm, and `crit`, which
/// names extensions that must be understood.
struct JWTHeader: Sendable, Equatable, Decodable {
    var alg: String?
    var crit: [String]?

    init(alg: String? = nil, crit: [String]? = nil) {
        self.alg = alg
        self.crit = crit
    }

    /// The header read straight from its JSON bytes; nil for anything but a plain object of
    /// string members (escapes allowed), `crit` an array of strings, `null` for either, other
    /// members skipped — and for a repeated member. The caller then decodes with `JSONDecoder`,
    /// the plain twin (`JWTJSONReadingTests` holds them equal), whose answer stands.
    static func read(_ json: UnsafeBufferPointer<UInt8>) -> JWTHeader? {
        var reader = JSONReader(bytes: json)
        var alg: String??, crit: [String]??
        guard reader.take(UInt8(ascii: "{")) else { return nil }
        if !reader.take(UInt8(ascii: "}")) {
            repeat {
                guard let key = reader.key(), reader.take(UInt8(ascii: ":")) else { return nil }
                switch JWTName(key) {
                case .alg?:
                    guard alg == nil, let value = reader.optional({ $0.string() }) else { return nil }
                    alg = value
                case .crit?:
                    guard crit == nil, let value = reader.optional({ $0.strings() }) else { return nil }
                    crit = value
                default:
                    guard reader.skipValue(depth: 0) else { return nil }
                }
            } while reader.take(UInt8(ascii: ","))
            guard reader.take(UInt8(ascii: "}")) else { return nil }
        }
        guard reader.atEnd() else { return nil }
        return JWTHeader(alg: alg ?? nil, crit: crit ?? nil)
    }
}
