// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Integers with an N-bit prefix (RFC 7541 §5.1).
enum HPACKInteger {
    /// The largest value decoded: far above any table size or string length a peer may use, and
    /// small enough that the arithmetic never overflows (a 10-byte integer would otherwise wrap).
    static let maximum = (1 << 28) - 1

    /// Appends `value` with the top `8 - prefixBits` bits of its first byte set to `flags`.
    static func encode(_ value: Int, prefixBits: Int, flags: UInt8, into out: inout [UInt8]) {
        let limit = (1 << prefixBits) - 1
        if value < limit {
            out.append(flags | UInt8(value))
            return
        }
        out.append(flags | UInt8(limit))
        var rest = value - limit
        while rest >= 128 {
            out.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        out.append(UInt8(rest))
    }

    /// Decodes an integer whose first byte is at `position`, moving `position` past it. Inlined
    /// for the one-byte integers of nearly every index and length; longer ones go on in
    /// `decodeContinuation` (a call per integer cost the client's decoder about 12 k instructions a `/users` request).
    @inline(__always)
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at position: inout Int, prefixBits: Int) throws(HPACKError) -> Int {
        guard position < bytes.count else { throw .truncated }
        // Wrapping: a prefix is 1 to 8 bits, and `position` is below the count it was checked against.
        let limit = (1 &<< prefixBits) &- 1
        let value = Int(bytes[position]) & limit
        position &+= 1
        guard value == limit else { return value }
        return try decodeContinuation(bytes, at: &position, value: value)
    }

    @inline(never)
    private static func decodeContinuation(_ bytes: UnsafeBufferPointer<UInt8>, at position: inout Int, value: Int) throws(HPACKError) -> Int {
        var value = value
        var shift = 0
        while true {
            guard position < bytes.count else { throw .truncated }
            let byte = bytes[position]
            position += 1
            value += Int(byte & 0x7F) << shift
            guard value <= maximum else { throw .integerOverflow }
            if byte & 0x80 == 0 { return value }
            shift += 7
            guard shift < 28 else { throw .integerOverflow }
        }
    }
}
