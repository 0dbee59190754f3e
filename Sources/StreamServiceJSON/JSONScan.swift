// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceText

/// Byte-level JSON string scanning, shared by the writer (`JSONOutput`: what to escape) and the
/// readers (Domain's `GitHubUserReader`: where a string's plain run ends), built on `ByteWords`'
/// eight-bytes-at-once tests. Public, as `JSONReader`, whose inlinable members call it.
public enum JSONScan {
    /// The first index at or after `start` of a byte a JSON string's reader must look at (`"`,
    /// `\`, a control character, non-ASCII), or `bytes.count`. The whole scan is here, not only
    /// the word tests: called per word from another module (`GitHubUserReader`), they were not
    /// inlined and cost a call each.
    ///
    /// Inlinable: the reader's string and key scans are always inlined into Domain's
    /// `GitHubUserReader` (`JSONReader.plainRun`), and with this the scan too, where a call per
    /// string, its vectors set up each time, cost about 45 instructions (1,650 calls a `/users`
    /// page).
    @inlinable
    public static func stringStop(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        scan(bytes, from: start, stopsAtNonASCII: true)
    }

    /// The first index at or after `start` of a byte a JSON string's writer must escape (`"`,
    /// `\`, a control character; non-ASCII is written as it is), or `bytes.count`.
    public static func escapeStop(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        scan(bytes, from: start, stopsAtNonASCII: false)
    }

    /// One scan for both, inlined into each with its constant, so the reader's loop tests no
    /// run-time flag per word. Sixteen bytes at a time (vector compares: a page of users is about
    /// 26 kB of JSON), then eight-byte words for what is left, then bytes (the figures:
    /// Benchmarks/README.md).
    @inlinable @inline(__always)
    static func scan(_ bytes: UnsafeRawBufferPointer, from start: Int, stopsAtNonASCII: Bool) -> Int {
        var index = start
        // The constants as vectors, not scalars: `v .== 0x22` was compiled lane by lane.
        let quote = SIMD16<UInt8>(repeating: UInt8(ascii: "\"")), backslash = SIMD16<UInt8>(repeating: UInt8(ascii: "\\"))
        let space = SIMD16<UInt8>(repeating: 0x20), nonASCII = SIMD16<UInt8>(repeating: 0x80)
        while index + 16 <= bytes.count {
            let block = bytes.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self)
            var attention = (block .== quote) .| (block .== backslash) .| (block .< space)
            if stopsAtNonASCII { attention = attention .| (block .>= nonASCII) }
            // Each flagged lane is 0xFF: the lowest set bit of either half is its first flagged byte.
            let halves = unsafeBitCast(attention, to: SIMD2<UInt64>.self)
            let low = UInt64(littleEndian: halves[0]), high = UInt64(littleEndian: halves[1])
            if low != 0 { return index + low.trailingZeroBitCount / 8 }
            if high != 0 { return index + 8 + high.trailingZeroBitCount / 8 }
            index += 16
        }
        while index + 8 <= bytes.count {
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            var attention = ByteWords.below(word, 0x20) | ByteWords.equal(word, UInt8(ascii: "\"")) | ByteWords.equal(word, UInt8(ascii: "\\"))
            if stopsAtNonASCII { attention |= ByteWords.nonASCII(word) }
            if attention != 0 { return index + ByteWords.firstFlagged(attention) }
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
