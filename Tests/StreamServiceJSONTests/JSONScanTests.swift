// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import StreamServiceJSON

final class JSONScanTests: XCTestCase {
    func stop(_ bytes: [UInt8], from start: Int = 0) -> Int {
        bytes.withUnsafeBytes { JSONScan.stringStop(in: $0, from: start) }
    }

    func testAJSONStringScanStopsAtTheFirstByteNeedingAttentionWhereverItIs() {
        for special: UInt8 in [UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x00, 0x1F, 0x80, 0xC3, 0xFF] {
            for position in 0..<23 {
                var bytes = Array("abcdefghijklmnopqrstuvw".utf8)
                bytes[position] = special
                XCTAssertEqual(stop(bytes), position, "byte \(special) at \(position)")
                // A second one later changes nothing: the first wins (a borrow may flag bytes after it, never before).
                if position + 1 < bytes.count {
                    bytes[position + 1] = UInt8(ascii: "\"")
                    XCTAssertEqual(stop(bytes), position, "byte \(special) at \(position), quote after it")
                }
            }
        }
    }

    /// The scans' slow twin: byte by byte, as the JSON grammar says.
    private func referenceStop(_ bytes: [UInt8], from start: Int, stopsAtNonASCII: Bool) -> Int {
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || (stopsAtNonASCII && byte >= 0x80) { return index }
            index += 1
        }
        return index
    }

    func testBothScansAgreeWithAByteByByteScanAcrossBlockAndWordBoundaries() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [UInt8] = Array("abcXYZ019 -_/:.".utf8) + [0x22, 0x5C, 0x00, 0x1F, 0x7F, 0x80, 0xC3, 0xFF]
        for length in 0..<70 {
            for _ in 0..<20 {
                // Mostly plain bytes, a special one now and then.
                let bytes = (0..<length).map { _ in Int.random(in: 0..<8, using: &generator) == 0 ? alphabet.randomElement(using: &generator)! : UInt8(ascii: "m") }
                for start in 0...length {
                    let scanned = bytes.withUnsafeBytes { (JSONScan.stringStop(in: $0, from: start), JSONScan.escapeStop(in: $0, from: start)) }
                    XCTAssertEqual(scanned.0, referenceStop(bytes, from: start, stopsAtNonASCII: true), "stringStop of \(bytes) from \(start)")
                    XCTAssertEqual(scanned.1, referenceStop(bytes, from: start, stopsAtNonASCII: false), "escapeStop of \(bytes) from \(start)")
                }
            }
        }
    }

    func testAPlainRunScansToTheEndFromAnyStart() {
        let bytes = Array("a plain run of text, 37 bytes long!!".utf8)
        for start in 0...bytes.count { XCTAssertEqual(stop(bytes, from: start), bytes.count) }
    }
}
