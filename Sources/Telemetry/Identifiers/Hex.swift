// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP

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
    /// eight digits at a time in a word (`HexWords`), two stores, where a digit at a time cost
    /// about 350 instructions more a `traceparent` (494 -> ~150; Benchmarks/README.md).
    /// `ASCIIDigits.writeHexadecimal` is its slow twin (`TraceParentTests` holds them equal).
    @inline(__always)
    static func write(_ value: UInt64, into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int) {
        HexWords.write(value, to: UnsafeMutableRawPointer(buffer.baseAddress! + offset))
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
