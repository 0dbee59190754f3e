/// Tests on eight bytes at once, read as one little-endian `UInt64` word, for scanners that
/// look for the few bytes needing attention (a quote, a control character) in long plain
/// runs: a byte at a time costs about 10 instructions a byte, a word about 2.
///
/// Each test gives a mask with the high bit of a flagged byte set. Its lowest set bit is always
/// exact (only bytes after a flagged one may be flagged falsely, by the subtraction's borrow),
/// so `firstFlagged` of any union of masks is the first byte that needs attention.
package enum ByteWords {
    /// Flags the bytes of `word` below `limit` (`limit` ≤ 128).
    @inline(__always)
    package static func below(_ word: UInt64, _ limit: UInt8) -> UInt64 {
        (word &- 0x0101_0101_0101_0101 &* UInt64(limit)) & ~word & 0x8080_8080_8080_8080
    }

    /// Flags the bytes of `word` equal to `byte`.
    @inline(__always)
    package static func equal(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        below(word ^ (0x0101_0101_0101_0101 &* UInt64(byte)), 1)
    }

    /// Flags the bytes of `word` that are 128 or above (not ASCII).
    @inline(__always)
    package static func nonASCII(_ word: UInt64) -> UInt64 {
        word & 0x8080_8080_8080_8080
    }

    /// The offset (0-7) of the first flagged byte of a non-zero mask.
    @inline(__always)
    package static func firstFlagged(_ mask: UInt64) -> Int {
        mask.trailingZeroBitCount >> 3
    }

    /// The first index at or after `start` of a byte a JSON string's reader must look at (`"`,
    /// `\`, a control character, non-ASCII), or `bytes.count`. The whole scan is here, not only
    /// the word tests: called per word from another module (`GitHubUserReader`), they were not
    /// inlined and cost a call each.
    package static func jsonStringStop(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        jsonScan(bytes, from: start, stopsAtNonASCII: true)
    }

    /// The first index at or after `start` of a byte a JSON string's writer must escape (`"`,
    /// `\`, a control character; non-ASCII is written as it is), or `bytes.count`.
    package static func jsonEscapeStop(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        jsonScan(bytes, from: start, stopsAtNonASCII: false)
    }

    /// One scan for both, inlined into each with its constant: a run-time flag cost the reader
    /// a third more instructions per byte (callgrind, /users).
    @inline(__always)
    private static func jsonScan(_ bytes: UnsafeRawBufferPointer, from start: Int, stopsAtNonASCII: Bool) -> Int {
        var index = start
        while index + 8 <= bytes.count {
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            var attention = below(word, 0x20) | equal(word, UInt8(ascii: "\"")) | equal(word, UInt8(ascii: "\\"))
            if stopsAtNonASCII { attention |= nonASCII(word) }
            if attention != 0 { return index + firstFlagged(attention) }
            index += 8
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x20 || (stopsAtNonASCII && byte >= 0x80) || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return index }
            index += 1
        }
        return index
    }
}
