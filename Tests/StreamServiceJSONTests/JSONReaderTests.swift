// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceJSON
import XCTest

/// `JSONReader.double`: a number of the strict grammar gives the `Double` that `Double(String)` gives.
final class JSONReaderTests: XCTestCase {
    private func double(_ text: String) -> Double? {
        Array(text.utf8).withUnsafeBufferPointer { bytes in
            var reader = JSONReader(bytes: bytes)
            return reader.double()
        }
    }

    func testNumbersReadAsDoubleFromStringDoes() {
        for text in ["0", "7", "-12", "1764277200", "9007199254740993", "9223372036854775807", "-9223372036854775808",
                     "99999999999999999999", "1.5", "-0.25", "1e9", "2E-3", "123456789012345678901234567890"] {
            XCTAssertEqual(double(text), Double(text), text)
        }
    }

    func testNegativeZeroKeepsItsSign() {
        XCTAssertEqual(double("-0")?.sign, .minus)
        XCTAssertEqual(double("0")?.sign, .plus)
    }

    func testNotNumbersOfTheStrictGrammarAreRefused() {
        for text in ["01", "-", "1.", ".5", "1e", "+1", "abc", ""] {
            XCTAssertNil(double(text), text)
        }
    }
}
