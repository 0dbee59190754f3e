/// The JSON member names a token's header and claims are read by, matched on a key's raw bytes.
enum JWTName: String, CaseIterable {
    case alg, crit, sub, iss, aud, exp, nbf, streamservice, subscribe, metrics

    /// Whether `key` (a member name's bytes, unescaped) is this name.
    func `is`(_ key: UnsafeBufferPointer<UInt8>) -> Bool {
        var name = rawValue
        return name.withUTF8 { $0.count == key.count && $0.elementsEqual(key) }
    }
}
