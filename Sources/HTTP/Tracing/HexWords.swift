// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Lowercase hex digits eight at a time in a word: what a `traceparent`'s ids are written with,
/// here (`TraceParentIDs`, an upstream request's head) and in Telemetry (`Hex`, its slow twin
/// being `ASCIIDigits.writeHexadecimal`, a digit at a time: about 13 instructions a digit, 48 a
/// `traceparent`, where this takes about 3).
package enum HexWords {
    /// `value` as 16 lowercase hex digits at `at`, leading zeros kept: two stores.
    @inlinable @inline(__always)
    package static func write(_ value: UInt64, to at: UnsafeMutableRawPointer) {
        at.storeBytes(of: digits(UInt32(truncatingIfNeeded: value >> 32)).bigEndian, as: UInt64.self)
        (at + 8).storeBytes(of: digits(UInt32(truncatingIfNeeded: value)).bigEndian, as: UInt64.self)
    }

    /// The eight hex digits of `value` as ASCII, the first digit in the word's highest byte: each
    /// nibble spread into a byte of its own, then '0' added, and 'a' - '0' - 10 more to those of
    /// 10 and over (a nibble plus 6 carries into bit 4 exactly then).
    @inlinable @inline(__always)
    package static func digits(_ value: UInt32) -> UInt64 {
        var x = UInt64(value)
        x = (x | x << 16) & 0x0000_FFFF_0000_FFFF
        x = (x | x << 8) & 0x00FF_00FF_00FF_00FF
        x = (x | x << 4) & 0x0F0F_0F0F_0F0F_0F0F
        let letters = ((x &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101
        return x &+ 0x3030_3030_3030_3030 &+ letters &* 0x27
    }
}
