/// Tests on eight bytes at once, read as one `UInt64` word, for scanners that look for the
/// few bytes needing attention (a quote, a control character) in long plain runs: a byte at
/// a time costs about 10 instructions a byte, a word about 2.
package enum ByteWords {
    /// Whether some byte of `word` is below `limit` (exact for any byte when `limit` ≤ 128).
    @inline(__always)
    package static func anyByte(_ word: UInt64, below limit: UInt8) -> Bool {
        (word &- 0x0101_0101_0101_0101 &* UInt64(limit)) & ~word & 0x8080_8080_8080_8080 != 0
    }

    /// Whether some byte of `word` is `byte`.
    @inline(__always)
    package static func anyByte(_ word: UInt64, equalTo byte: UInt8) -> Bool {
        anyByte(word ^ (0x0101_0101_0101_0101 &* UInt64(byte)), below: 1)
    }

    /// Whether some byte of `word` is 128 or above (not ASCII).
    @inline(__always)
    package static func anyNonASCII(_ word: UInt64) -> Bool {
        word & 0x8080_8080_8080_8080 != 0
    }

    /// The first index at or after `start` of a byte a JSON string's reader must look at (`"`,
    /// `\`, a control character, non-ASCII), or `bytes.count`. The whole scan is here, not only
    /// the word tests: called per word from another module (`GitHubUserReader`), they were not
    /// inlined and cost a call each.
    package static func jsonStringStop(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        var index = start
        while index + 8 <= bytes.count {
            let word = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            if anyNonASCII(word) || anyByte(word, below: 0x20)
                || anyByte(word, equalTo: UInt8(ascii: "\"")) || anyByte(word, equalTo: UInt8(ascii: "\\")) {
                break
            }
            index += 8
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x20 || byte >= 0x80 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return index }
            index += 1
        }
        return index
    }
}
