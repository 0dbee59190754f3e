// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceText
import XCTest

/// `ASCIIDigits` against its slow twins, `String(_:)` and `String(_:radix:)`.
final class ASCIIDigitsTests: XCTestCase {
    static let samples: [Int] = [0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 65_535, 1 << 31, 999_999_999_999, .max, -1, -10, -99, .min]

    func testDecimalStringsAreWhatStringOfTheNumberSpells() {
        for value in Self.samples {
            XCTAssertEqual(ASCIIDigits.string("", decimal: value), String(value))
            XCTAssertEqual(ASCIIDigits.string("zoë", ": ", decimal: value, " bytes"), "zoë: \(value) bytes")
        }
    }

    func testHexadecimalStringsAreWhatStringWithRadix16Spells() {
        for value: UInt64 in [0, 1, 9, 10, 15, 16, 0xbeef, 1 << 63, .max] {
            XCTAssertEqual(ASCIIDigits.string("req-", hexadecimal: value), "req-" + String(value, radix: 16))
        }
    }

    func testDigitCountsMatchTheSpelledLengths() {
        for value in Self.samples where value >= 0 {
            XCTAssertEqual(ASCIIDigits.decimalCount(UInt(value)), String(value).count)
        }
        XCTAssertEqual(ASCIIDigits.hexadecimalCount(0), 1)
        XCTAssertEqual(ASCIIDigits.hexadecimalCount(.max), 16)
    }

    func testAFixedWidthKeepsTheLowDigitsZeroPadded() {
        var bytes = [UInt8](repeating: 0, count: 4)
        bytes.withUnsafeMutableBufferPointer { ASCIIDigits.writeDecimal(7, count: 4, to: $0.baseAddress!) }
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), "0007")
        bytes.withUnsafeMutableBufferPointer { ASCIIDigits.writeDecimal(123_456, count: 3, to: $0.baseAddress!) }
        XCTAssertEqual(String(decoding: bytes.prefix(3), as: UTF8.self), "456")
    }
}
