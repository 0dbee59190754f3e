// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// The chunked transfer coding (RFC 9112 §7.1), both directions: framing a body's
/// pieces as chunks, and the grammar of a chunk-size line that both parsers read.
package enum ChunkedCodec {
    /// `<hex size>\r\n<bytes>\r\n`, one chunk of a chunked body.
    package static func chunk(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 12)
        appendHex(bytes.count, to: &out)
        out.append(13)
        out.append(10)
        out.append(contentsOf: bytes)
        out.append(13)
        out.append(10)
        return out
    }

    /// The zero-size chunk with an empty trailer section: the body's end.
    package static let lastChunk: [UInt8] = Array("0\r\n\r\n".utf8)

    package static func appendHex(_ value: Int, to out: inout [UInt8]) {
        var shift = (Int.bitWidth - value.leadingZeroBitCount + 3) / 4 * 4 - 4
        if shift < 0 { out.append(48); return }
        while shift >= 0 {
            out.append(hexDigits[(value >> shift) & 0xF])
            shift -= 4
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Why a chunk-size line is refused.
    package enum SizeLineError: Error, Equatable {
        case invalidSize
        /// More than 15 hex digits: the size could overflow.
        case sizeTooLarge
        case invalidExtension
    }

    /// The size in `chunk-size [ chunk-ext ]` (line without its CRLF): hex digits, optional
    /// blanks, then optionally `;…` extensions, which are checked for control characters and ignored.
    package static func size<Line: RandomAccessCollection>(ofSizeLine line: Line) -> Result<Int, SizeLineError> where Line.Element == UInt8 {
        var size = 0
        var digits = 0
        var index = line.startIndex
        while index != line.endIndex, let digit = HTTPSyntax.hexValue(line[index]) {
            size = size << 4 | Int(digit)
            digits += 1
            index = line.index(after: index)
            if digits > 15 { return .failure(.sizeTooLarge) }
        }
        guard digits > 0 else { return .failure(.invalidSize) }
        while index != line.endIndex && (line[index] == 32 || line[index] == 9) { index = line.index(after: index) }
        guard index == line.endIndex || line[index] == 59 else { return .failure(.invalidSize) }
        guard line[index...].allSatisfy(HTTPSyntax.isFieldValueCharacter) else { return .failure(.invalidExtension) }
        return .success(size)
    }
}
