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

    func testAPlainRunScansToTheEndFromAnyStart() {
        let bytes = Array("a plain run of text, 37 bytes long!!".utf8)
        for start in 0...bytes.count { XCTAssertEqual(stop(bytes, from: start), bytes.count) }
    }
}
