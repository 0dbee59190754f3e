// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import HTTP

/// `HTTPSyntax.sameWords`, the word-at-a-time name compare, answers as `sameToken`, its slow twin.
final class HTTPSyntaxWordsTests: XCTestCase {
    private static let names: [StaticString] = [
        "connection", "content-type", "content-length", "content-encoding", "transfer-encoding",
        "x-ratelimit-limit", "x-ratelimit-reset", "x-ratelimit-remaining", "abcdefgh",
    ]

    private func agree(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) {
        bytes.withUnsafeBytes { raw in
            for name in Self.names {
                XCTAssertEqual(HTTPSyntax.sameWords(raw, name), HTTPSyntax.sameToken(raw, name), "\(bytes) \(name)", file: file, line: line)
            }
        }
    }

    func testEveryCaseOfTheNamesAgreesWithTheTwin() {
        for name in Self.names {
            let bytes = Array(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
            agree(bytes)
            agree(bytes.map { $0 >= 97 && $0 <= 122 ? $0 - 32 : $0 })
            agree(bytes.enumerated().map { $0.offset % 2 == 0 && $0.element >= 97 ? $0.element - 32 : $0.element })
        }
    }

    func testEveryByteInEveryPlaceAgreesWithTheTwin() {
        for name in Self.names {
            let bytes = Array(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
            for index in bytes.indices {
                for byte in UInt8.min...UInt8.max {
                    var changed = bytes
                    changed[index] = byte
                    agree(changed)
                }
            }
        }
    }

    func testOtherLengthsAreNotTheName() {
        agree(Array("content-typ".utf8))
        agree(Array("content-types".utf8))
        agree([])
    }
}
