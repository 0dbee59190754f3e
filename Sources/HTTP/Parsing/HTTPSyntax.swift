// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import StreamServiceText

/// Byte-level grammar of RFC 9110/9112 used by the parser.
enum HTTPSyntax {
    /// tchar: `!#$%&'*+-.^_|~`, digits and letters (`HTTPTokenCharacters`).
    @inline(__always)
    static func isTokenCharacter(_ byte: UInt8) -> Bool { HTTPTokenCharacters.contains(byte) }

    /// field-vchar, SP and HTAB: anything but control characters (CR, LF, NUL, …) and DEL.
    static func isFieldValueCharacter(_ byte: UInt8) -> Bool {
        byte >= 32 ? byte != 127 : byte == 9
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// `HTTP/d.d`.
    static func version(_ bytes: UnsafeRawBufferPointer) -> HTTPVersion? {
        guard bytes.count == 8 else { return nil }
        // The two versions in use, as one word each: one comparison instead of a generic `starts(with:)`.
        let word = bytes.loadUnaligned(as: UInt64.self)
        if word == http11Word { return .http1_1 }
        if word == http10Word { return .http1_0 }
        guard bytes.starts(with: "HTTP/".utf8) else { return nil }
        let major = bytes[5], dot = bytes[6], minor = bytes[7]
        guard (48...57).contains(major), dot == 46, (48...57).contains(minor) else { return nil }
        if major == 49 && minor == 49 { return .http1_1 }
        if major == 49 && minor == 48 { return .http1_0 }
        return HTTPVersion(major: Int(major - 48), minor: Int(minor - 48))
    }

    /// `HTTP/1.1` and `HTTP/1.0` as the bytes of a word loaded from memory.
    private static let http11Word = UInt64(littleEndian: 0x312E_312F_5054_5448)
    private static let http10Word = UInt64(littleEndian: 0x302E_312F_5054_5448)

    /// Common methods reuse their constants; others become a new token.
    static func method(_ bytes: UnsafeRawBufferPointer) -> HTTPMethod {
        // Compared byte by byte: no generic `elementsEqual` over UTF-8 views.
        switch bytes.count {
        case 3 where bytes[0] == UInt8(ascii: "G") && bytes[1] == UInt8(ascii: "E") && bytes[2] == UInt8(ascii: "T"):
            return .get
        case 4 where bytes[1] == UInt8(ascii: "O") && bytes[0] == UInt8(ascii: "P") && bytes[2] == UInt8(ascii: "S") && bytes[3] == UInt8(ascii: "T"):
            return .post
        case 4 where bytes[1] == UInt8(ascii: "E") && bytes[0] == UInt8(ascii: "H") && bytes[2] == UInt8(ascii: "A") && bytes[3] == UInt8(ascii: "D"):
            return .head
        default:
            return HTTPMethod(String(decoding: bytes, as: UTF8.self))
        }
    }

    /// True when `bytes` spell `lowercase` (lower-case letters, digits, `-`) in any ASCII case.
    static func sameToken(_ bytes: UnsafeRawBufferPointer, _ lowercase: StaticString) -> Bool {
        guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
        let expected = lowercase.utf8Start
        for index in 0..<bytes.count {
            let byte = bytes[index]
            // Setting bit 0x20 lower-cases a letter; a non-letter changed by it matches no lower-case letter.
            let folded = byte >= 65 && byte <= 90 ? byte | 0x20 : byte
            if folded != expected[index] { return false }
        }
        return true
    }

    /// `sameToken` eight bytes a compare, for any bytes: a byte may differ from the expected one in
    /// bit 0x20 alone, and only where that one is a letter. The byte-by-byte loop cost ~100
    /// instructions for `Content-Length`, ~130 for `X-RateLimit-Remaining`, on every answer
    /// (callgrind). `lowercase` is ASCII, at least 8 bytes of lower-case letters, digits and `-`;
    /// `sameToken` is its slow twin (HTTPSyntaxWordsTests).
    @inline(__always)
    static func sameWords(_ bytes: UnsafeRawBufferPointer, _ lowercase: StaticString) -> Bool {
        let count = lowercase.utf8CodeUnitCount
        guard bytes.count == count, count >= 8, let base = bytes.baseAddress else { return false }
        let expected = UnsafeRawPointer(lowercase.utf8Start)
        @inline(__always)
        func same(at offset: Int) -> Bool {
            let ones: UInt64 = 0x0101_0101_0101_0101, high: UInt64 = 0x8080_8080_8080_8080
            let word = base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            let wanted = expected.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            // Bit 7 of each byte of `wanted` (all below 128) from `a` to `z`, moved to bit 5.
            let letters = (wanted &+ ones &* (0x80 - 0x61)) & (ones &* (0x80 + 0x7A) &- wanted) & high
            return (word ^ wanted) & ~(letters >> 2) == 0
        }
        var offset = 0
        while offset + 8 < count {
            guard same(at: offset) else { return false }
            offset += 8
        }
        // The last eight bytes, overlapping the word before them.
        return same(at: count - 8)
    }

    /// 1*DIGIT only: no sign, no spaces, no list; at most 15 digits so it cannot overflow.
    static func contentLength(_ value: String) -> Int? {
        let utf8 = value.utf8
        guard !utf8.isEmpty, utf8.count <= 15, utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
        return Int(value)
    }

    /// `name: value` of one header or trailer line (without CRLF), blanks around the value
    /// trimmed; refuses obsolete line folding, an empty or non-token name, and control
    /// characters in the value (CR, LF and NUL among them: no header injection).
    static func field(in line: [UInt8]) -> Result<(name: ArraySlice<UInt8>, value: ArraySlice<UInt8>), HTTPParseError> {
        line.withUnsafeBytes { raw in field(in: raw) }.map { (line[$0.name], line[$0.value]) }
    }

    /// 1 to 18 ASCII decimal digits (too few to overflow), else nil: a status code, a length or
    /// a rate-limit count, read from a field's bytes.
    static func digits(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard !bytes.isEmpty, bytes.count <= 18 else { return nil }
        var value = 0
        for byte in bytes {
            let digit = byte &- UInt8(ascii: "0")
            guard digit <= 9 else { return nil }
            value = value &* 10 &+ Int(digit)
        }
        return value
    }

    /// The same for a line in place: where the name and the value lie in `line`.
    ///
    /// The colon found by `memchr` and the value checked eight bytes at a time (`ByteWords`),
    /// not byte by byte through the collection methods.
    static func field(in line: UnsafeRawBufferPointer) -> Result<(name: Range<Int>, value: Range<Int>), HTTPParseError> {
        guard let base = line.baseAddress, !line.isEmpty else { return .failure(.malformed("header field without a name")) }
        if line[0] == 32 || line[0] == 9 { return .failure(.malformed("obsolete line folding")) }
        guard let found = memchr(base, 58, line.count), case let colon = UnsafeRawPointer(found) - base, colon > 0 else {
            return .failure(.malformed("header field without a name"))
        }
        for index in 0..<colon where !isTokenCharacter(line[index]) {
            return .failure(.malformed("invalid character in header name"))
        }
        var valueStart = colon + 1
        var valueEnd = line.count
        while valueStart < valueEnd && (line[valueStart] == 32 || line[valueStart] == 9) { valueStart += 1 }
        while valueEnd > valueStart && (line[valueEnd - 1] == 32 || line[valueEnd - 1] == 9) { valueEnd -= 1 }
        guard allFieldValueCharacters(UnsafeRawBufferPointer(rebasing: line[valueStart..<valueEnd])) else {
            return .failure(.malformed("invalid character in header value"))
        }
        return .success((0..<colon, valueStart..<valueEnd))
    }

    /// Whether every byte is a `isFieldValueCharacter`: words of eight bytes with no control
    /// character and no DEL pass at once, the rest (a tab, a bad byte, the tail) byte by byte.
    static func allFieldValueCharacters(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        while index + 8 <= bytes.count {
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            if ByteWords.below(word, 0x20) | ByteWords.equal(word, 0x7F) != 0 {
                for offset in index..<(index + 8) where !isFieldValueCharacter(bytes[offset]) { return false }
            }
            index += 8
        }
        for offset in index..<bytes.count where !isFieldValueCharacter(bytes[offset]) { return false }
        return true
    }
}

extension StringProtocol {
    /// Without leading and trailing OWS (RFC 9110 §5.6.3: spaces and tabs only).
    var trimmingSpaces: Substring {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" { s.removeLast() }
        return s
    }
}
