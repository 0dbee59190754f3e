// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

@testable import Domain
import Foundation
import XCTest

/// The memo of parsed avatar URLs answers as `URL(string:)` does, its slow twin.
final class ParsedURLsTests: XCTestCase {
    private let strings = [
        "https://avatars.githubusercontent.com/u/1?v=4", "http://127.0.0.1:8081/u/2?v=4", "https://example.com/a%20b.png",
        "https://example.com/päth", "not a url", "", "https://[::1]:443/x", "relative/path",
    ]

    func testAParsedStringIsTheURLFoundationParses() {
        let memo = ParsedURLs(capacity: 64)
        for string in strings {
            XCTAssertEqual(memo.url(string), URL(string: string), string)
        }
    }

    func testAStringParsedAgainIsAnsweredTheSameFromTheMemo() {
        let memo = ParsedURLs(capacity: 64)
        let string = strings[0]
        let first = memo.url(string)
        XCTAssertEqual(memo.count, 1)
        XCTAssertEqual(memo.url(string), first)
        XCTAssertEqual(memo.count, 1)
    }

    func testAStringFoundationRefusesIsNotKept() {
        let memo = ParsedURLs(capacity: 64)
        XCTAssertNil(URL(string: ""))
        XCTAssertNil(memo.url(""))
        XCTAssertEqual(memo.count, 0)
    }

    func testTheMemoKeepsNoMoreThanItsCapacity() {
        let memo = ParsedURLs(capacity: 2)
        for index in 0..<5 {
            let string = "https://example.com/u/\(index)"
            XCTAssertEqual(memo.url(string), URL(string: string))
        }
        XCTAssertLessThanOrEqual(memo.count, 2)
    }

    func testStringsTakingEachOthersSlotsAreEachAnsweredAsFoundationParsesThem() {
        // One set of two slots: three strings take turns replacing the older one.
        let memo = ParsedURLs(capacity: 2)
        let strings = (0..<3).map { "https://avatars.example.com/u/\($0)?v=4" }
        for _ in 0..<3 {
            for string in strings { XCTAssertEqual(memo.url(string), URL(string: string), string) }
        }
    }

    func testAnEqualStringInAnotherStorageIsFoundAgain() {
        let memo = ParsedURLs(capacity: 64)
        let first = memo.url("https://avatars.example.com/u/" + String(7) + "?v=4")
        let again = memo.url(String(decoding: Array("https://avatars.example.com/u/7?v=4".utf8), as: UTF8.self))
        XCTAssertEqual(again, first)
        XCTAssertEqual(memo.count, 1)
    }
}
