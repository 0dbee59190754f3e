/// RFC 4648 §5 base64url without padding, as JWS compact serialization uses it (RFC 7515 §2):
/// a padded or non-alphabet segment is malformed, not repaired.
enum Base64URL {
    /// The bytes of `text`, or nil when it is not unpadded base64url.
    static func decode(_ text: Substring) -> [UInt8]? {
        var text = text
        return text.withUTF8 { decode($0) }
    }

    /// The bytes of base64url `text` given as bytes, written into an array of their exact size:
    /// a token's three parts are decoded on every new token, and reading a `Substring`'s UTF-8
    /// view and appending byte by byte cost about 60 instructions a character (callgrind).
    static func decode(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        // One character left over (6 bits) cannot end a quantum.
        guard text.count % 4 != 1 else { return nil }
        var valid = true
        let bytes = [UInt8](unsafeUninitializedCapacity: text.count * 3 / 4) { out, written in
            var accumulator: UInt32 = 0, bits: UInt32 = 0
            for character in text {
                guard let value = sextet(character) else {
                    valid = false
                    break
                }
                accumulator = accumulator << 6 | UInt32(value)
                bits += 6
                if bits >= 8 {
                    bits -= 8
                    out[written] = UInt8(truncatingIfNeeded: accumulator >> bits)
                    written += 1
                }
            }
            // Leftover bits must be zero (the canonical form).
            if accumulator & ((1 << bits) - 1) != 0 { valid = false }
        }
        return valid ? bytes : nil
    }

    private static func sextet(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}
