// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Tests on eight bytes at once, read as one little-endian `UInt64` word, for scanners that
/// look for the few bytes needing attention (a quote, a control character) in long plain
/// runs: one test covers eight bytes, where a byte at a time tests each (the figure: Benchmarks/README.md).
///
/// Each test gives a mask with the high bit of a flagged byte set. Its lowest set bit is always
/// exact (only bytes after a flagged one may be flagged falsely, by the subtraction's borrow),
/// so `firstFlagged` of any union of masks is the first byte that needs attention.
///
/// Inlinable: its callers (HTTP's parser and head writer, the JSON scan) are in other modules
/// and call it per word. Public, not `package`: Swift 6.3 leaves a `package` member's inlinable
/// body a call in another module's loops (a call per word), where a public one is inlined. The
/// module is no product, so nothing outside this package sees it.
public enum ByteWords {
    /// Flags the bytes of `word` below `limit` (`limit` ≤ 128).
    @inlinable @inline(__always)
    public static func below(_ word: UInt64, _ limit: UInt8) -> UInt64 {
        (word &- 0x0101_0101_0101_0101 &* UInt64(limit)) & ~word & 0x8080_8080_8080_8080
    }

    /// Flags the bytes of `word` equal to `byte`.
    @inlinable @inline(__always)
    public static func equal(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        below(word ^ (0x0101_0101_0101_0101 &* UInt64(byte)), 1)
    }

    /// Flags the bytes of `word` that are 128 or above (not ASCII).
    @inlinable @inline(__always)
    public static func nonASCII(_ word: UInt64) -> UInt64 {
        word & 0x8080_8080_8080_8080
    }

    /// The offset (0-7) of the first flagged byte of a non-zero mask.
    @inlinable @inline(__always)
    public static func firstFlagged(_ mask: UInt64) -> Int {
        mask.trailingZeroBitCount >> 3
    }
}
