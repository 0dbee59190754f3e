// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
import Domain
@testable import DemoUpstream

final class DemoRouteTests: XCTestCase {
    func route(_ target: String) -> DemoRoute { DemoRoute(DemoRequest(target: target)) }

    func testEachResourceHasItsRoute() {
        XCTAssertEqual(route("/rate_limit"), .rateLimit)
        XCTAssertEqual(route("/users"), .users)
        XCTAssertEqual(route("/users/ada1"), .user(login: "ada1"))
        XCTAssertEqual(route("/users/ada1/repos"), .repos(login: "ada1"))
        XCTAssertEqual(route("/u/3"), .avatar(id: 3))
        XCTAssertEqual(route("/grace2.png"), .avatarRedirect(login: "grace2"))
    }

    func testEmptySegmentsAreSkippedAsASplitOnSlashSkipsThem() {
        XCTAssertEqual(route("//users/"), .users)
        XCTAssertEqual(route("/users//ada1///repos/"), .repos(login: "ada1"))
        XCTAssertEqual(route("u/3"), .avatar(id: 3))
    }

    func testAnAvatarIdThatIsNoNumberIsNil() {
        XCTAssertEqual(route("/u/abc"), .avatar(id: nil))
        XCTAssertEqual(route("/u/+3"), .avatar(id: 3), "as Int(\"+3\") reads it")
        XCTAssertEqual(route("/u/-3"), .avatar(id: -3))
        XCTAssertEqual(route("/u/007"), .avatar(id: 7))
        XCTAssertEqual(route("/u/"), .notFound)
        XCTAssertEqual(route("/u/999999999999999999"), .avatar(id: 999_999_999_999_999_999), "18 digits")
        XCTAssertEqual(route("/u/9223372036854775807"), .avatar(id: .max))
        XCTAssertEqual(route("/u/9223372036854775808"), .avatar(id: nil), "more than an Int holds")
    }

    func testTheQueryIsNoPartOfTheRoute() {
        XCTAssertEqual(route("/u/3?v=4"), .avatar(id: 3))
        XCTAssertEqual(route("/users?since=/3"), .users)
        XCTAssertEqual(route("/users/ada1?x=é"), .user(login: "ada1"), "a query outside ASCII")
    }

    func testOtherPathsAreNotFound() {
        for path in ["", "/", "/nothing", "/USERS", "/u", "/u/3/x", "/users/ada1/stars", "/users/ada1/repos/x", "/.pn", "/rate_limit/x"] {
            XCTAssertEqual(route(path), .notFound, path)
        }
    }

    func testAPngNameIsTheLoginBeforeItsSuffix() {
        XCTAssertEqual(route("/.png"), .avatarRedirect(login: ""))
        XCTAssertEqual(route("/a.png.png"), .avatarRedirect(login: "a.png"))
    }

    func testOutsideASCIIASlashFollowedByACombiningMarkIsNoSeparator() {
        XCTAssertEqual(route("/users/\u{301}ada1"), .notFound, "one segment, `users/́ada1`")
        XCTAssertEqual(route("/users/adé1"), .user(login: "adé1"))
        XCTAssertEqual(route("/é.png"), .avatarRedirect(login: "é"))
    }
}
