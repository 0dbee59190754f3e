/// RFC 4648 §5 base64url without padding, as JWS compact serialization uses it (RFC 7515 §2):
/// a padded or non-alphabet segment is malformed, not repaired.
enum Base64URL {
    /// The bytes of `text`, or nil when it is not unpadded base64url.
    static func decode(_ text: Substring) -> [UInt8]? {
        var text = text
        return text.withUTF8 { decode($0) }
    }

    /// The bytes of base64url `text` given as bytes, four characters to three bytes through a
    /// table: a token's three parts are decoded on every new token, and the character-by-character
    /// loop (`decodeBySextets`, the plain twin `JWTVerifierTests` holds equal) cost 33 instructions a
    /// character (callgrind), about 6,000 a token.
    static func decode(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        // One character left over (6 bits) cannot end a quantum.
        let remainder = text.count % 4
        guard remainder != 1 else { return nil }
        let whole = text.count - remainder
        var valid = true
        let bytes = sextetTable.withUnsafeBufferPointer { table in
            [UInt8](unsafeUninitializedCapacity: whole / 4 * 3 + max(0, remainder - 1)) { out, written in
                var read = 0
                while read < whole {
                    let a = table[Int(text[read])], b = table[Int(text[read + 1])]
                    let c = table[Int(text[read + 2])], d = table[Int(text[read + 3])]
                    // A byte outside the alphabet is 0xFF in the table: its top bits mark it.
                    guard (a | b | c | d) & 0xC0 == 0 else {
                        valid = false
                        return
                    }
                    let quantum = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                    out[written] = UInt8(truncatingIfNeeded: quantum >> 16)
                    out[written + 1] = UInt8(truncatingIfNeeded: quantum >> 8)
                    out[written + 2] = UInt8(truncatingIfNeeded: quantum)
                    written += 3
                    read += 4
                }
                guard remainder > 0 else { return }
                let a = table[Int(text[read])], b = table[Int(text[read + 1])]
                let c = remainder == 3 ? table[Int(text[read + 2])] : 0
                // Leftover bits must be zero (the canonical form): 4 of the last sextet of two, 2 of three.
                let leftover = remainder == 3 ? c & 0x03 : b & 0x0F
                guard (a | b | c) & 0xC0 == 0, leftover == 0 else {
                    valid = false
                    return
                }
                let quantum = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6
                out[written] = UInt8(truncatingIfNeeded: quantum >> 16)
                written += 1
                if remainder == 3 {
                    out[written] = UInt8(truncatingIfNeeded: quantum >> 8)
                    written += 1
                }
            }
        }
        return valid ? bytes : nil
    }

    /// Each byte's sextet, 0xFF for a byte outside the base64url alphabet.
    private static let sextetTable: [UInt8] = (0...255).map { sextet(UInt8($0)) ?? 0xFF }

    /// `decode` one character at a time: the plain twin.
    static func decodeBySextets(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
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
