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
        var header = JWTHeader(), seen = JWTName.Seen()
        guard reader.take(UInt8(ascii: "{")) else { return nil }
        if !reader.take(UInt8(ascii: "}")) {
            repeat {
                guard let key = reader.key(), reader.take(UInt8(ascii: ":")) else { return nil }
                guard let name = JWTName(key), name.object == .header else {
                    guard reader.skipValue(depth: 0) else { return nil }
                    continue
                }
                // `null` is a member without a value (as `decodeIfPresent` reads it).
                guard seen.insert(name) else { return nil }
                if reader.literal("null") { continue }
                if name == .alg {
                    guard let value = reader.string() else { return nil }
                    header.alg = value
                } else {
                    guard let value = reader.strings() else { return nil }
                    header.crit = value
                }
            } while reader.take(UInt8(ascii: ","))
            guard reader.take(UInt8(ascii: "}")) else { return nil }
        }
        guard reader.atEnd() else { return nil }
        return header
    }
}
