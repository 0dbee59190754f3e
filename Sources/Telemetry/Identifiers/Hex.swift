// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Lowercase hex, the only form W3C Trace Context and OTLP/JSON accept for ids.
enum Hex {
    /// 16 lowercase hex digits, leading zeros kept.
    static func string(_ value: UInt64) -> String {
        String(unsafeUninitializedCapacity: 16) { buffer in
            write(value, into: buffer, at: 0)
            return 16
        }
    }

    /// `value` as 16 lowercase hex digits at `offset` of `buffer` (which has room for them):
    /// eight digits at a time in a word (`digits`), two stores, where a digit at a time cost
    /// about 350 instructions more a `traceparent` (494 -> ~150; Benchmarks/README.md).
    /// `ASCIIDigits.writeHexadecimal` is its slow twin (`TraceParentTests` holds them equal).
    @inline(__always)
    static func write(_ value: UInt64, into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int) {
        let at = UnsafeMutableRawPointer(buffer.baseAddress! + offset)
        at.storeBytes(of: digits(UInt32(truncatingIfNeeded: value >> 32)).bigEndian, as: UInt64.self)
        (at + 8).storeBytes(of: digits(UInt32(truncatingIfNeeded: value)).bigEndian, as: UInt64.self)
    }

    /// The eight hex digits of `value` as ASCII, the first digit in the word's highest byte: each
    /// nibble spread into a byte of its own, then '0' added, and 'a' - '0' - 10 more to those of
    /// 10 and over (a nibble plus 6 carries into bit 4 exactly then).
    @inline(__always)
    static func digits(_ value: UInt32) -> UInt64 {
        var x = UInt64(value)
        x = (x | x << 16) & 0x0000_FFFF_0000_FFFF
        x = (x | x << 8) & 0x00FF_00FF_00FF_00FF
        x = (x | x << 4) & 0x0F0F_0F0F_0F0F_0F0F
        let letters = ((x &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101
        return x &+ 0x3030_3030_3030_3030 &+ letters &* 0x27
    }

    static func bytes(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> UInt64(56 - 8 * $0)) }
    }

    /// Up to 16 lowercase hex digits as a number; nil on any other character (uppercase included:
    /// the W3C spec makes it invalid).
    static func value(_ utf8: ArraySlice<UInt8>) -> UInt64? {
        guard utf8.count <= 16 else { return nil }
        var value: UInt64 = 0
        for byte in utf8 {
            guard let digit = digit(byte) else { return nil }
            value = value << 4 | UInt64(digit)
        }
        return value
    }

    static func digit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
