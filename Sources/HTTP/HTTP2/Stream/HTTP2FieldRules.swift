// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

// In the HTTP module, ByteWords comes from StreamServiceText; the HPACK fuzz target (scripts/fuzz-http2)
// compiles this file with ByteWords.swift into one module of its own.
#if canImport(StreamServiceText)
import StreamServiceText
#endif

/// RFC 9113 §8.2 and §8.2.1's rules for one field's name and value, over their bytes: what the
/// heads check (`HTTP2RequestHead.checkName`, `checkValue`) and what the HPACK decoder notes of the
/// fields it decodes (`HPACKDecoder.Block.checkedFields`), so that a field is checked once.
enum HTTP2FieldRules {
    enum NameFault { case empty, uppercase, notToken }
    enum ValueFault { case forbiddenByte, leadingWhitespace, trailingWhitespace }

    /// The name passes: a lowercase token, a leading colon only for pseudo-headers.
    static func isValidName(_ name: String) -> Bool { withBytes(of: name, nameFault) == nil }

    /// The value passes: no NUL, CR or LF, no whitespace at either end.
    static func isValidValue(_ value: String) -> Bool { withBytes(of: value, valueFault) == nil }

    /// Whether field `index` is marked in a decoder's `checkedFields`.
    @inline(__always)
    static func isChecked(_ index: Int, in checked: UInt64) -> Bool {
        index < 64 && checked & (1 << UInt64(index)) != 0
    }

    /// The name rules over the name's bytes: a `String`'s UTF-8 view cost a call and an index step
    /// per byte, for every field of every block.
    static func nameFault(_ bytes: UnsafeBufferPointer<UInt8>) -> NameFault? {
        guard let first = bytes.first else { return .empty }
        for index in (first == UInt8(ascii: ":") ? 1 : 0)..<bytes.count {
            let byte = bytes[index]
            if byte &- UInt8(ascii: "A") < 26 { return .uppercase }
            guard HTTPTokenCharacters.contains(byte) else { return .notToken }
        }
        return nil
    }

    /// The value rules over the value's bytes, in their order.
    static func valueFault(_ bytes: UnsafeBufferPointer<UInt8>) -> ValueFault? {
        // One comparison for nearly every byte: the three refused ones are all below 0x0E. Looked
        // for a byte at a time only in a value that has a byte that low (a tab, or one of them).
        if mayHoldByteBelow0E(bytes) {
            for byte in bytes where byte < 0x0E && (byte == 0 || byte == 0x0A || byte == 0x0D) { return .forbiddenByte }
        }
        guard let first = bytes.first, let last = bytes.last else { return nil }
        if first == 0x20 || first == 0x09 { return .leadingWhitespace }
        if last == 0x20 || last == 0x09 { return .trailingWhitespace }
        return nil
    }

    /// Whether a byte of `bytes` is below 0x0E, eight at a time (`ByteWords`): the literal values
    /// of every response, a byte at a time, cost the HTTP/2 client 17.6 k instructions a `/users`
    /// request, 13.9 k this way (the values are short; Benchmarks/README.md). The byte loop in
    /// `valueFault` decides; HTTP2ResponseHeadTests puts each refused byte at each position.
    private static func mayHoldByteBelow0E(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let raw = UnsafeRawBufferPointer(bytes)
        var index = 0
        while index + 8 <= raw.count {
            if ByteWords.below(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self), 0x0E) != 0 { return true }
            index += 8
        }
        while index < raw.count {
            if raw[index] < 0x0E { return true }
            index += 1
        }
        return false
    }

    /// `body` over the string's UTF-8 bytes where they lie (a native string lends them without a copy).
    @inline(__always)
    static func withBytes<Result>(of string: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        var string = string
        return string.withUTF8(body)
    }
}
