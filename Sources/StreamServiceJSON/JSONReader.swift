// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore

/// Reads a JSON document straight from its bytes, one value at a time, for readers that pick a
/// few fields out of a document and skip the rest without building it (Domain's
/// `GitHubUserReader`, the server's JWT claims): `JSONDecoder` builds a map of the whole
/// document first and then decodes through `Decodable` containers, many times the work.
///
/// Only plain shapes are read strictly: every method returns nil or false for what it does not
/// expect, and its caller then hands the document to `JSONDecoder`, whose answer stands — so a
/// reader built on this can be faster, never different (each keeps a test that they agree).
///
/// Inlinable: its callers live in other modules and call it per byte run; as plain calls across
/// the module boundary they cost a call each. Public, not `package`: Swift 6.3 does not inline a
/// `package` member's inlinable body into another module's loops (`ByteWords` says more); the
/// module is no product, so nothing outside this package sees it.
public struct JSONReader {
    @usableFromInline let bytes: UnsafeBufferPointer<UInt8>
    @usableFromInline var index = 0

    @inlinable
    public init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    @inlinable @inline(__always)
    public mutating func skipWhitespace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
            index += 1
        }
    }

    /// Skips whitespace; true (and consumed) when the next byte is `byte`.
    @inlinable @inline(__always)
    public mutating func take(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// Whether only whitespace is left.
    @inlinable
    public mutating func atEnd() -> Bool {
        skipWhitespace()
        return index == bytes.count
    }

    /// `null` → `.some(nil)`, a string → `.some(string)`, anything else → nil. One per type rather
    /// than one generic `optional(_:)`: called from another module, the generic was left
    /// unspecialized, and looked `Optional`'s metadata up at run time on every call (the figure:
    /// Benchmarks/README.md).
    @inlinable
    public mutating func optionalString() -> String?? {
        if literal("null") { return .some(nil) }
        return string().map { .some($0) }
    }

    /// `null` → `.some(nil)`, a plain integer → `.some(integer)`, anything else → nil.
    @inlinable
    public mutating func optionalInteger() -> Int?? {
        if literal("null") { return .some(nil) }
        return integer().map { .some($0) }
    }

    @inlinable
    public mutating func literal(_ word: StaticString) -> Bool {
        skipWhitespace()
        return literalBytes(word)
    }

    /// A plain integer (`-?[0-9]+`) that fits an `Int`.
    @inlinable
    public mutating func integer() -> Int? {
        skipWhitespace()
        let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        let start = index
        var value = 0
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int(bytes[index] - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { return nil }
            value = sum
            index += 1
        }
        guard index > start, index - start == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
        // A fraction or exponent: not a plain integer, let JSONDecoder judge it.
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") || bytes[index] | 0x20 == UInt8(ascii: "e") { return nil }
        return negative ? -value : value
    }

    /// A number of the strict grammar as a finite `Double` (one too large for it is left to JSONDecoder).
    @inlinable
    public mutating func double() -> Double? {
        skipWhitespace()
        let start = index
        guard number(), let value = Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)),
              value.isFinite else { return nil }
        return value
    }

    /// `true` or `false`.
    @inlinable
    public mutating func boolean() -> Bool? {
        if literal("true") { return true }
        if literal("false") { return false }
        return nil
    }

    @inlinable
    public mutating func string() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        var ascii = true
        while index < bytes.count {
            index = plainRun(from: index)
            guard index < bytes.count else { break }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let raw = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                // ASCII needs no validation: the common case costs one copy.
                return ascii ? String(decoding: raw, as: UTF8.self) : String(validating: raw, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") { return escapedString(from: start) }
            guard byte >= 0x20 else { return nil }
            if byte >= 0x80 { ascii = false }
            index += 1
        }
        return nil
    }

    /// An array of strings.
    @inlinable
    public mutating func strings() -> [String]? {
        guard take(UInt8(ascii: "[")) else { return nil }
        var values: [String] = []
        if take(UInt8(ascii: "]")) { return values }
        repeat {
            guard let value = string() else { return nil }
            values.append(value)
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]")) ? values : nil
    }

    /// The first index at or after `start` of a byte a string's reader must look at (`"`, `\`,
    /// a control character, non-ASCII), or the end; eight bytes tested at a time, as documents
    /// of long plain strings (URLs) are mostly such runs.
    @inlinable @inline(__always)
    func plainRun(from start: Int) -> Int {
        JSONScan.stringStop(in: UnsafeRawBufferPointer(bytes), from: start)
    }

    /// A value skipped as `skipValue(depth: 0)` skips it, a string (the value a reader skips most:
    /// 16 of a `/users` item's 19 are URLs and ids) inlined here rather than through that
    /// recursive, called function.
    @inlinable
    public mutating func skipTopValue() -> Bool {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return skipValue(depth: 0) }
        return skipString()
    }

    /// A string skipped without being built; false when it is not a well-formed one.
    @inlinable @inline(__always)
    public mutating func skipString() -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return false }
        let start = index
        index += 1
        while index < bytes.count {
            index = plainRun(from: index)
            guard index < bytes.count else { break }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return true
            }
            if byte == UInt8(ascii: "\\") || byte >= 0x80 {
                // Escapes and non-ASCII text are checked as `string()` checks them.
                index = start
                return string() != nil
            }
            guard byte >= 0x20 else { return false }
            index += 1
        }
        return false
    }

    /// An object key's raw bytes, for matching against the names a reader keeps; nil for a key
    /// with escapes (left to JSONDecoder). A non-ASCII key is returned, and names no field.
    /// Always inlined, as `take`, `skipWhitespace`, `skipString` and `plainRun`: merely
    /// `@inlinable`, they stayed calls from Domain's `GitHubUserReader` (about 40 a user of a
    /// `/users` page, the reader's `index` stored and loaded around each).
    @inlinable @inline(__always)
    public mutating func key() -> UnsafeBufferPointer<UInt8>? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        while true {
            index = plainRun(from: index)
            guard index < bytes.count, bytes[index] >= 0x80 else { break }
            index += 1
        }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        let key = UnsafeBufferPointer(rebasing: bytes[start..<index])
        index += 1
        return key
    }

    /// The rest of a string that has escapes, from its first byte at `start`.
    @inlinable
    mutating func escapedString(from start: Int) -> String? {
        var text = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(validating: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { return nil }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escape)
                case UInt8(ascii: "n"): text.append(0x0A)
                case UInt8(ascii: "t"): text.append(0x09)
                case UInt8(ascii: "r"): text.append(0x0D)
                case UInt8(ascii: "b"): text.append(0x08)
                case UInt8(ascii: "f"): text.append(0x0C)
                case UInt8(ascii: "u"):
                    guard var scalar = hex4() else { return nil }
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard literalBytes("\\u"), let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { return nil }
                    text.append(contentsOf: String(Character(unicode)).utf8)
                default:
                    return nil
                }
            default:
                guard byte >= 0x20 else { return nil }
                text.append(byte)
            }
        }
        return nil
    }

    /// `word` at once, without skipping whitespace (inside a string).
    @inlinable
    mutating func literalBytes(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { return false }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
        index += count
        return true
    }

    /// Called, not inlined: a `\u` escape is rare, and `PercentEncoding` (NetCore) is not public.
    @usableFromInline
    mutating func hex4() -> UInt32? {
        guard bytes.count - index >= 4 else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = PercentEncoding.hexValue(bytes[index]) else { return nil }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// Skips one value of any type (nested up to 64 levels).
    @inlinable
    public mutating func skipValue(depth: Int) -> Bool {
        guard depth < 64 else { return false }
        skipWhitespace()
        guard index < bytes.count else { return false }
        switch bytes[index] {
        case UInt8(ascii: "\""):
            return skipString()
        case UInt8(ascii: "{"):
            index += 1
            if take(UInt8(ascii: "}")) { return true }
            repeat {
                skipWhitespace()
                guard skipString(), take(UInt8(ascii: ":")), skipValue(depth: depth + 1) else { return false }
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "}"))
        case UInt8(ascii: "["):
            index += 1
            if take(UInt8(ascii: "]")) { return true }
            repeat {
                guard skipValue(depth: depth + 1) else { return false }
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "]"))
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        default:
            return number()
        }
    }

    /// Skips a JSON number (strict grammar).
    @inlinable
    mutating func number() -> Bool {
        let start = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        let integerDigits = digits()
        guard integerDigits > 0, integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else { return false }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { return false }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { return false }
        }
        return index > start
    }

    /// Skips decimal digits; how many.
    @inlinable
    mutating func digits() -> Int {
        let from = index
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            index += 1
        }
        return index - from
    }
}
