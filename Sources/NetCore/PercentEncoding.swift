// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Percent-encoding (`%XX`) without Foundation, shared by the server and the upstream client.
package enum PercentEncoding {
    /// Decodes `%XX` escapes and `+` (query convention) into a UTF-8 string.
    /// Malformed escapes are kept literally rather than rejected: a lenient
    /// decoder never turns a readable request into an error.
    package static func decode(_ text: Substring, plusAsSpace: Bool = true) -> String {
        let utf8 = text.utf8
        guard utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) }) else {
            return String(text)
        }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%"),
               let i1 = utf8.index(index, offsetBy: 1, limitedBy: utf8.endIndex), i1 != utf8.endIndex,
               let i2 = utf8.index(i1, offsetBy: 1, limitedBy: utf8.endIndex), i2 != utf8.endIndex,
               let hi = hexValue(utf8[i1]), let lo = hexValue(utf8[i2]) {
                out.append(hi << 4 | lo)
                index = utf8.index(after: i2)
                continue
            }
            out.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index = utf8.index(after: index)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Strict decoding, as Foundation's `removingPercentEncoding`: nil when a `%` is not
    /// followed by two hex digits or the decoded bytes are not valid UTF-8; `+` stays `+`.
    package static func decodeStrictly(_ text: some StringProtocol) -> String? {
        let utf8 = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            guard byte == UInt8(ascii: "%") else {
                out.append(byte)
                index += 1
                continue
            }
            guard index + 2 < utf8.count, let hi = hexValue(utf8[index + 1]), let lo = hexValue(utf8[index + 2]) else {
                return nil
            }
            out.append(hi << 4 | lo)
            index += 3
        }
        return String(validating: out, as: UTF8.self)
    }

    /// Escapes `segment` for use as one path segment, as Foundation's
    /// `addingPercentEncoding(withAllowedCharacters: .urlPathAllowed minus "/")`:
    /// every UTF-8 byte outside that set becomes `%XX` (upper-case hex).
    package static func encodePathSegment(_ segment: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(segment.utf8.count)
        for byte in segment.utf8 {
            if isPathSegmentAllowed(byte) {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(upperHexDigit(byte >> 4))
                out.append(upperHexDigit(byte & 0x0F))
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// ASCII letters and digits and `!$&'()*+,-.:=@_~` (Foundation's `.urlPathAllowed` without `/`).
    static func isPathSegmentAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "!$&'()*+,-.:=@_~".utf8.contains(byte)
        }
    }

    static func upperHexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10
    }

    package static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
