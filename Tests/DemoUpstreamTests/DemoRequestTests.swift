// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
import Domain
@testable import DemoUpstream

final class DemoRequestTests: XCTestCase {
    func testTargetSplitsIntoPathAndQuery() {
        let request = DemoRequest(target: "/users?since=3&per_page=2")
        XCTAssertEqual(request.path, "/users")
        XCTAssertEqual(request.query, ["since": "3", "per_page": "2"])
    }

    func testTargetWithoutQueryIsAllPath() {
        XCTAssertEqual(DemoRequest(target: "/u/3").path, "/u/3")
        XCTAssertEqual(DemoRequest(target: "/u/3").query, [:])
    }

    func testQueryIsPercentDecodedStrictlyKeepingABadEscapeAsWritten() {
        let request = DemoRequest(target: "/users?per%5Fpage=3&since=%zz&q=a+b&flag")
        XCTAssertEqual(request.query, ["per_page": "3", "since": "%zz", "q": "a+b", "flag": ""])
    }

    func testTheLastOfARepeatedParameterWins() {
        XCTAssertEqual(DemoRequest(target: "/users?per_page=3&per_page=5").query["per_page"], "5")
    }

    func testAnEmptyNameOrValueIsKept() {
        XCTAssertEqual(DemoRequest(target: "/users?=x&since=&&").query, ["": "x", "since": ""])
    }

    func testASeparatorFollowedByACombiningMarkIsNoSeparator() {
        let request = DemoRequest(target: "/users?since=3&\u{301}x=1")
        XCTAssertEqual(request.query, ["since": "3&\u{301}x=1"])
    }

    func testAQueryValueIsWhatTheQueryDictionaryHolds() {
        let targets = [
            "/users", "/users?", "/users?since=3&per_page=2", "/users?per_page=3&per_page=5", "/users?=x&since=&&", "/users?since",
            "/users?since=a=b", "/users?&&since=4&", "/users?per%5Fpage=3&since=%zz", "/users?since=3&\u{301}x=1", "/usérs?since=1",
            "/users?since=+3&per_page=-1", "/users?SINCE=3", "/users?since=1?since=2",
        ]
        for target in targets {
            let request = DemoRequest(target: target)
            for name in ["since", "per_page", "", "x", "SINCE"] {
                XCTAssertEqual(request.queryValue(name), request.query[name], "\(name) in \(target)")
            }
        }
    }

    func testIfNoneMatchIsFoundInHeaderFieldsOfAnyCase() {
        XCTAssertEqual(DemoRequest(target: "/", headers: ["if-NONE-match": "\"a\""]).ifNoneMatch, "\"a\"")
        XCTAssertNil(DemoRequest(target: "/", headers: ["If-Match": "\"a\""]).ifNoneMatch)
    }

    func testAQuestionMarkFollowedByACombiningMarkStartsNoQuery() {
        let request = DemoRequest(target: "/users?\u{301}since=3")
        XCTAssertEqual(request.path, "/users?\u{301}since=3")
        XCTAssertEqual(request.query, [:])
    }

    func testAnEmptyQueryIsNoParameters() {
        XCTAssertEqual(DemoRequest(target: "/users?").path, "/users")
        XCTAssertEqual(DemoRequest(target: "/users?").query, [:])
    }
}
