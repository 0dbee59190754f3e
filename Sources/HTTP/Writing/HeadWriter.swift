// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceText

/// Copies the pieces of a message head into memory its caller counted out for them, in both
/// directions: the server's response heads (`ResponseHeadEncoder`) and the client's request
/// heads (`HTTPClientRequest`).
struct HeadWriter {
    var at: UnsafeMutableRawPointer

    init(_ start: UnsafeMutableRawPointer) { at = start }

    mutating func bytes(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        at.copyMemory(from: base, byteCount: bytes.count)
        at += bytes.count
    }

    mutating func byte(_ byte: UInt8) {
        at.storeBytes(of: byte, as: UInt8.self)
        at += 1
    }

    mutating func text(_ text: StaticString) {
        bytes(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    mutating func string(_ text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ bytes(UnsafeRawBufferPointer($0)) }) == nil {
            for byte in text.utf8 { self.byte(byte) }
        }
    }

    /// CR LF, `name: value`; a value's CR and LF bytes are dropped, so values from handlers
    /// cannot inject header lines.
    mutating func field(_ name: String, _ value: String) {
        byte(13)
        byte(10)
        string(name)
        byte(58)
        byte(32)
        // Copied, then the copy checked eight bytes at a time: one pass over the value's bytes
        // and a word test per eight, where a byte-by-byte `contains` first read the value twice.
        let start = at
        string(value)
        if Self.containsLineBreak(UnsafeRawBufferPointer(start: start, count: at - start)) {
            at = start
            for byte in value.utf8 where byte != 13 && byte != 10 { self.byte(byte) }
        }
    }

    private static func containsLineBreak(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        while index + 8 <= bytes.count {
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            if ByteWords.equal(word, 13) | ByteWords.equal(word, 10) != 0 { return true }
            index += 8
        }
        while index < bytes.count {
            if bytes[index] == 13 || bytes[index] == 10 { return true }
            index += 1
        }
        return false
    }

    /// A non-negative decimal.
    mutating func decimal(_ value: Int) {
        let count = ASCIIDigits.decimalCount(UInt(value))
        ASCIIDigits.writeDecimal(UInt(value), count: count, to: at.assumingMemoryBound(to: UInt8.self))
        at += count
    }

    /// Digits of a non-negative decimal.
    static func decimalCount(_ value: Int) -> Int {
        ASCIIDigits.decimalCount(UInt(value))
    }
}
