// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Numbers as ASCII digits, written straight into memory counted out for them: the one digit
/// writer of message heads, the JSON writer, request ids, timestamps and log details. The
/// invariant: no intermediate string and one allocation per string made, where `String(n)` or an
/// interpolation makes the number's own string and grows a buffer to join it.
package enum ASCIIDigits {
    /// How many decimal digits `value` has (1 for 0).
    @inlinable
    package static func decimalCount(_ value: UInt) -> Int {
        var count = 1
        var rest = value
        while rest >= 10 {
            rest /= 10
            count += 1
        }
        return count
    }

    /// The low `count` decimal digits of `value`, zero-padded on the left, into `count` bytes at `start`.
    @inlinable
    package static func writeDecimal(_ value: UInt, count: Int, to start: UnsafeMutablePointer<UInt8>) {
        write(UInt64(value), radix: 10, count: count, to: start)
    }

    /// How many hexadecimal digits `value` has (1 for 0).
    @inlinable
    package static func hexadecimalCount(_ value: UInt64) -> Int {
        max(1, (UInt64.bitWidth - value.leadingZeroBitCount + 3) / 4)
    }

    /// The low `count` hexadecimal digits of `value` in lower case into `count` bytes at `start`.
    @inlinable
    package static func writeHexadecimal(_ value: UInt64, count: Int, to start: UnsafeMutablePointer<UInt8>) {
        write(value, radix: 16, count: count, to: start)
    }

    /// One digit loop for both radixes; inlined with its constant radix, the division is a multiply (10) or a shift (16).
    @inlinable @inline(__always)
    static func write(_ value: UInt64, radix: UInt64, count: Int, to start: UnsafeMutablePointer<UInt8>) {
        var rest = value
        var index = count
        while index > 0 {
            index -= 1
            let digit = UInt8(truncatingIfNeeded: rest % radix)
            start[index] = digit < 10 ? UInt8(ascii: "0") &+ digit : UInt8(ascii: "a") &+ digit &- 10
            rest /= radix
        }
    }

    /// `prefix` and `separator`, then `value` in decimal (`-` first when negative), then `suffix`,
    /// written into one string of exactly their length: `string(login, ": ", decimal: 3, " bytes")`.
    package static func string(_ prefix: String, _ separator: StaticString = "", decimal value: Int, _ suffix: StaticString = "") -> String {
        let sign = value < 0 ? 1 : 0
        let digits = decimalCount(value.magnitude)
        return string(prefix, separator, digits: sign + digits, suffix) { start in
            if sign == 1 { start.pointee = UInt8(ascii: "-") }
            writeDecimal(value.magnitude, count: digits, to: start + sign)
        }
    }

    /// `prefix`, then `value` in lower-case hexadecimal, in one string of exactly their length.
    package static func string(_ prefix: String, hexadecimal value: UInt64) -> String {
        let digits = hexadecimalCount(value)
        return string(prefix, "", digits: digits, "") { writeHexadecimal(value, count: digits, to: $0) }
    }

    private static func string(
        _ prefix: String, _ separator: StaticString, digits: Int, _ suffix: StaticString, write: (UnsafeMutablePointer<UInt8>) -> Void
    ) -> String {
        var prefix = prefix
        return prefix.withUTF8 { head in
            String(unsafeUninitializedCapacity: head.count + separator.utf8CodeUnitCount + digits + suffix.utf8CodeUnitCount) { text in
                var end = text.initialize(fromContentsOf: head)
                end = text[end...].initialize(fromContentsOf: Self.bytes(separator))
                write(text.baseAddress! + end)
                end += digits
                return text[end...].initialize(fromContentsOf: Self.bytes(suffix))
            }
        }
    }

    private static func bytes(_ text: StaticString) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
    }
}
