// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// RFC 4648 §5 base64url without padding, as JWS compact serialization uses it (RFC 7515 §2):
/// a padded or non-alphabet segment is malformed, not repaired.
enum Base64URL {
    /// The bytes of `text`, or nil when it is not unpadded base64url.
    static func decode(_ text: Substring) -> [UInt8]? {
        var text = text
        return text.withUTF8 { decode($0) }
    }

    /// The bytes of base64url `text` given as bytes, in an array of their exact size.
    static func decode(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard let count = decodedCount(text.count) else { return nil }
        var valid = true
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { out, written in
            guard let decoded = decode(text, into: out) else { return valid = false }
            written = decoded
        }
        return valid ? bytes : nil
    }

    /// How many bytes `characters` characters of unpadded base64url decode to; nil for a count
    /// no text decodes from (one character left over, 6 bits, cannot end a quantum).
    static func decodedCount(_ characters: Int) -> Int? {
        characters % 4 == 1 ? nil : characters / 4 * 3 + max(0, characters % 4 - 1)
    }

    /// Decodes `text` into the start of `out` (at least `decodedCount(text.count)` bytes), four
    /// characters to three bytes through a table; how many bytes it wrote, nil when `text` is not
    /// unpadded base64url. A token's three parts are decoded on every new token, and the
    /// character-by-character loop (`decodeBySextets`, the plain twin `JWTVerifierTests` holds
    /// equal) costs several times the table per character (the figure: Benchmarks/README.md).
    static func decode(_ text: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        guard let count = decodedCount(text.count), out.count >= count else { return nil }
        let remainder = text.count % 4, whole = text.count - remainder
        return sextetTable.withUnsafeBufferPointer { table -> Int? in
            var read = 0, written = 0
            while read < whole {
                let a = table[Int(text[read])], b = table[Int(text[read + 1])]
                let c = table[Int(text[read + 2])], d = table[Int(text[read + 3])]
                // A byte outside the alphabet is 0xFF in the table: its top bits mark it.
                guard (a | b | c | d) & 0xC0 == 0 else { return nil }
                let quantum = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                out[written] = UInt8(truncatingIfNeeded: quantum >> 16)
                out[written + 1] = UInt8(truncatingIfNeeded: quantum >> 8)
                out[written + 2] = UInt8(truncatingIfNeeded: quantum)
                written += 3
                read += 4
            }
            guard remainder > 0 else { return written }
            let a = table[Int(text[read])], b = table[Int(text[read + 1])]
            let c = remainder == 3 ? table[Int(text[read + 2])] : 0
            // Leftover bits must be zero (the canonical form): 4 of the last sextet of two, 2 of three.
            let leftover = remainder == 3 ? c & 0x03 : b & 0x0F
            guard (a | b | c) & 0xC0 == 0, leftover == 0 else { return nil }
            let quantum = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6
            out[written] = UInt8(truncatingIfNeeded: quantum >> 16)
            written += 1
            if remainder == 3 {
                out[written] = UInt8(truncatingIfNeeded: quantum >> 8)
                written += 1
            }
            return written
        }
    }

    /// `bytes` as unpadded base64url text.
    static func encode(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var text: [UInt8] = []
        text.reserveCapacity((bytes.count * 4 + 2) / 3)
        var accumulator: UInt32 = 0, bits = 0
        for byte in bytes {
            accumulator = accumulator << 8 | UInt32(byte)
            bits += 8
            while bits >= 6 {
                bits -= 6
                text.append(alphabet[Int(accumulator >> UInt32(bits) & 0x3F)])
            }
        }
        if bits > 0 { text.append(alphabet[Int(accumulator << UInt32(6 - bits) & 0x3F)]) }
        return String(decoding: text, as: UTF8.self)
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
