// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore
import XCTest

final class CRC32Tests: XCTestCase {
    func testFoldedCRCAgreesWithZlibsAtEveryLengthAndOffset() {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<2_100).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes.withUnsafeBytes { all in
            for offset in 0..<16 {
                for count in 0...(all.count - offset) where count < 300 || count % 61 == 0 {
                    let slice = UnsafeRawBufferPointer(rebasing: all[offset..<offset + count])
                    XCTAssertEqual(CRC32.update(0x1234_5678, slice), CRC32.tabled(0x1234_5678, slice), "offset \(offset), \(count) bytes")
                }
            }
        }
    }

    func testFoldedCRCOfTheCheckStringIsTheStandardsCheckValue() {
        // RFC 1952's CRC-32 of "123456789" is 0xCBF43926; repeated past 64 bytes so the fold runs.
        let text = Array(String(repeating: "123456789", count: 8).utf8)
        let expected = text.withUnsafeBytes { CRC32.tabled(0, $0) }
        XCTAssertEqual(text.withUnsafeBytes { CRC32.update(0, $0) }, expected)
        XCTAssertEqual(Array("123456789".utf8).withUnsafeBytes { CRC32.update(0, $0) }, 0xCBF4_3926)
    }

    func testFoldsOnThisMachine() throws {
        #if arch(x86_64)
        XCTAssertTrue(CRC32.folds, "the service's machines have PCLMULQDQ; without it every CRC is zlib's")
        #else
        throw XCTSkip("the fold is x86-64's")
        #endif
    }
}
