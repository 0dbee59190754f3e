// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceText

/// Compact JSON written into one byte buffer: strings escaped as `JSONEncoder` escapes them
/// (`"`, `\`, `\b \f \n \r \t`, other control characters as `\u00xx`; `/` and non-ASCII
/// left as they are), integers in decimal. Objects are written field by field in the order
/// the caller gives (`JSONWritable` types give theirs sorted).
public struct JSONOutput {
    public private(set) var bytes: [UInt8] = []
    /// No field written yet in the object being written: the next needs no comma.
    private var atFirstField = true

    public init(reservingCapacity capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    /// `value` as JSON bytes.
    @inlinable
    public static func encode(_ value: some JSONWritable, reservingCapacity capacity: Int = 256) -> [UInt8] {
        var json = JSONOutput(reservingCapacity: capacity)
        value.writeJSON(to: &json)
        return json.bytes
    }

    // The generic entry points are inlinable, so the answer types' calls specialize for their
    // field types; unspecialized, each field went through witness tables.

    /// `{`, the fields `body` writes, `}`.
    @inlinable
    public mutating func object(_ body: (inout JSONOutput) -> Void) {
        let outer = openObject()
        body(&self)
        closeObject(restoring: outer)
    }

    /// One `"key":value` of the object being written; `key` needs no escaping (a Swift
    /// property name).
    @inlinable
    public mutating func field(_ key: StaticString, _ value: some JSONWritable) {
        self.key(key)
        value.writeJSON(to: &self)
    }

    /// The field when `value` is not nil, as `JSONEncoder` writes an optional property of a
    /// synthesized `Encodable` (`encodeIfPresent`).
    @inlinable
    public mutating func field(_ key: StaticString, ifPresent value: (some JSONWritable)?) {
        if let value { field(key, value) }
    }

    @inlinable
    public mutating func array(_ elements: [some JSONWritable]) {
        punctuate(UInt8(ascii: "["))
        for (index, element) in elements.enumerated() {
            if index > 0 { punctuate(UInt8(ascii: ",")) }
            element.writeJSON(to: &self)
        }
        punctuate(UInt8(ascii: "]"))
    }

    /// Writes `{` and starts counting fields afresh; returns the enclosing object's count.
    @usableFromInline
    mutating func openObject() -> Bool {
        let outer = atFirstField
        atFirstField = true
        bytes.append(UInt8(ascii: "{"))
        return outer
    }

    @usableFromInline
    mutating func closeObject(restoring outer: Bool) {
        bytes.append(UInt8(ascii: "}"))
        atFirstField = outer
    }

    /// `,` unless first, then `"key":`.
    @usableFromInline
    mutating func key(_ key: StaticString) {
        if !atFirstField { bytes.append(UInt8(ascii: ",")) }
        atFirstField = false
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    @usableFromInline
    mutating func punctuate(_ byte: UInt8) {
        bytes.append(byte)
    }

    public mutating func null() {
        bytes.append(contentsOf: [UInt8(ascii: "n"), UInt8(ascii: "u"), UInt8(ascii: "l"), UInt8(ascii: "l")])
    }

    public mutating func bool(_ value: Bool) {
        if value {
            bytes.append(contentsOf: [UInt8(ascii: "t"), UInt8(ascii: "r"), UInt8(ascii: "u"), UInt8(ascii: "e")])
        } else {
            bytes.append(contentsOf: [UInt8(ascii: "f"), UInt8(ascii: "a"), UInt8(ascii: "l"), UInt8(ascii: "s"), UInt8(ascii: "e")])
        }
    }

    /// Decimal digits, `-` first when negative (`Int.min` included).
    public mutating func int(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        let count = ASCIIDigits.decimalCount(value.magnitude)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { digits in
            ASCIIDigits.writeDecimal(value.magnitude, count: count, to: digits.baseAddress!)
            bytes.append(contentsOf: digits)
        }
    }

    public mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            bytes.append(UInt8(ascii: "\""))
            // Runs that need no escape are found eight bytes at a time and copied whole: one word
            // test per eight plain bytes, where a byte at a time made eight tests and eight appends.
            let raw = UnsafeRawBufferPointer(utf8)
            var runStart = 0
            var index = JSONScan.escapeStop(in: raw, from: 0)
            while index < utf8.count {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                escape(utf8[index])
                runStart = index + 1
                index = JSONScan.escapeStop(in: raw, from: runStart)
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
            bytes.append(UInt8(ascii: "\""))
        }
    }

    private mutating func escape(_ byte: UInt8) {
        let backslash = UInt8(ascii: "\\")
        switch byte {
        case UInt8(ascii: "\""), backslash: bytes.append(contentsOf: [backslash, byte])
        case 0x08: bytes.append(contentsOf: [backslash, UInt8(ascii: "b")])
        case 0x0C: bytes.append(contentsOf: [backslash, UInt8(ascii: "f")])
        case UInt8(ascii: "\n"): bytes.append(contentsOf: [backslash, UInt8(ascii: "n")])
        case UInt8(ascii: "\r"): bytes.append(contentsOf: [backslash, UInt8(ascii: "r")])
        case UInt8(ascii: "\t"): bytes.append(contentsOf: [backslash, UInt8(ascii: "t")])
        default:
            let hex = Self.hexDigits
            bytes.append(contentsOf: [backslash, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}
