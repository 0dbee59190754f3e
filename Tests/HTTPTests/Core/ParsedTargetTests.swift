// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import HTTP

final class ParsedTargetTests: XCTestCase {
    /// Targets of every form, with and without a query, escapes before and after the `?`.
    private let targets = [
        "/", "/users", "/users?since=5", "/a?b=1?c", "/a?", "/?x", "/%7Euser", "/%7E?x=%20", "/a+b?c+d",
        "/a?b%20c=1", "/caf%C3%A9", "/%zz", "http://host:8080/p?q=1", "https://host", "http://host?q", "*",
        "example.com:443", "a?b", "",
    ]

    func testAPlainPathIsItsOwnPathWithNoQuery() {
        let target = ParsedTarget("/users")
        XCTAssertEqual(target.path, "/users")
        XCTAssertEqual(target.query, "")
        XCTAssertEqual(target.text, "/users")
    }

    func testTheQueryIsEverythingAfterTheFirstQuestionMark() {
        let target = ParsedTarget("/a?b=1?c")
        XCTAssertEqual(target.path, "/a")
        XCTAssertEqual(target.query, "b=1?c")
    }

    func testThePathIsPercentDecodedAndTheQueryIsNot() {
        let target = ParsedTarget("/%7Euser?x=%20")
        XCTAssertEqual(target.path, "/~user")
        XCTAssertEqual(target.query, "x=%20")
    }

    func testAPlusInThePathStaysAPlus() {
        XCTAssertEqual(ParsedTarget("/a+b?c+d").path, "/a+b")
    }

    func testAnAbsoluteFormTargetKeepsOnlyItsPath() {
        XCTAssertEqual(ParsedTarget("http://host:8080/p?q=1").path, "/p")
        XCTAssertEqual(ParsedTarget("http://host:8080/p?q=1").query, "q=1")
        XCTAssertEqual(ParsedTarget("https://host").path, "/")
    }

    func testAsteriskAndAuthorityFormsAreTheirOwnPath() {
        XCTAssertEqual(ParsedTarget("*").path, "*")
        XCTAssertEqual(ParsedTarget("example.com:443").path, "example.com:443")
    }

    func testTheFastSplitAgreesWithTheGeneralRule() {
        for target in targets {
            XCTAssertEqual(ParsedTarget(target), ParsedTarget.splitInGeneral(target), target)
        }
    }

    func testTheParserCheckedSplitAgreesWithTheGeneralRule() {
        // What the parser hands over for a target starting with `/` with no `%` before its `?`.
        for target in targets where target.hasPrefix("/") {
            let utf8 = Array(target.utf8)
            let mark = utf8.firstIndex(of: UInt8(ascii: "?"))
            guard !utf8[..<(mark ?? utf8.count)].contains(UInt8(ascii: "%")) else { continue }
            XCTAssertEqual(ParsedTarget(checkedPlainPath: target, queryOffset: mark), ParsedTarget.splitInGeneral(target), target)
        }
    }
}
