// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Domain
import HTTP
import XCTest
@testable import Server

/// `/users` and `/users/stream` read `UsersQuery` through the shared query-parameter parser.
final class UsersQueryParametersTests: XCTestCase {
    private func parse(_ query: String) throws(InvalidQueryParameter) -> UsersQuery {
        try UsersQuery(Request(method: .get, target: "/users?" + query).queryParameters)
    }

    private func rejected(_ query: String) -> InvalidQueryParameter? {
        do {
            _ = try parse(query)
            return nil
        } catch {
            return error
        }
    }

    func testDefaultsApplyWhenParametersAreAbsent() throws {
        XCTAssertEqual(try parse(""), UsersQuery())
    }

    func testAllParametersParse() throws {
        XCTAssertEqual(
            try parse("since=5&limit=7&avatars=serial&concurrency=3&onAvatarError=skip&embed=data-uri&profile=true"),
            UsersQuery(since: 5, limit: 7, avatars: .serial, concurrency: 3, onAvatarError: .skip, embed: .dataURI, profile: true))
    }

    func testProfileMustBeTrueOrFalse() {
        XCTAssertEqual(try parse("profile=false").profile, false)
        XCTAssertEqual(rejected("profile=yes")?.name, "profile")
    }

    func testOutOfRangeNumbersNameTheParameter() {
        for (query, name) in [("limit=0", "limit"), ("limit=101", "limit"), ("limit=ten", "limit"), ("concurrency=65", "concurrency"), ("since=-1", "since")] {
            XCTAssertEqual(rejected(query)?.name, name, query)
        }
    }

    func testUnknownChoicesNameTheParameter() {
        for (query, name) in [("avatars=sideways", "avatars"), ("onAvatarError=ignore", "onAvatarError"), ("embed=base64", "embed")] {
            XCTAssertEqual(rejected(query)?.name, name, query)
        }
    }

    func testARepeatedParameterIsRejected() {
        XCTAssertEqual(rejected("limit=5&limit=6"), InvalidQueryParameter(name: "limit", value: "5', '6", reason: "must be given at most once"))
    }
}
