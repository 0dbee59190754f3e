// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
import Domain
@testable import DemoUpstream

final class DemoDirectoryTests: XCTestCase {
    let directory = DemoDirectory(userCount: 50)

    func testUsersAreNumberedFromOneWithLoginsEndingInTheirId() {
        XCTAssertEqual(directory.user(id: 1)?.login, "ada1")
        XCTAssertEqual(directory.user(id: 2)?.login, "grace2")
        XCTAssertNil(directory.user(id: 0))
        XCTAssertNil(directory.user(id: 51))
    }

    func testLookupByLoginFindsTheSameUser() {
        for id in 1...50 {
            let user = directory.user(id: id)!
            XCTAssertEqual(directory.user(login: user.login), user)
        }
    }

    func testLookupByLoginRejectsAWrongPrefixOrUnknownId() {
        XCTAssertNil(directory.user(login: "grace1"))
        XCTAssertNil(directory.user(login: "ada51"))
        XCTAssertNil(directory.user(login: "nobody"))
    }

    func testIdOfLoginNeedsTheLoginExactlyAsTheDirectoryWritesIt() {
        XCTAssertEqual(directory.id(ofLogin: "grace2"), 2)
        XCTAssertNil(directory.id(ofLogin: "grace02"), "a leading zero")
        XCTAssertNil(directory.id(ofLogin: "Grace2"), "another case")
        XCTAssertNil(directory.id(ofLogin: "grace2\u{301}"), "a combining mark on the last digit")
        XCTAssertNil(directory.id(ofLogin: "ada0"))
        XCTAssertNil(directory.id(ofLogin: "ada99999999999999999999999"), "more digits than an Int holds")
    }

    func testEveryFifthUserHasNoName() {
        XCTAssertNil(directory.user(id: 5)?.name)
        XCTAssertNotNil(directory.user(id: 4)?.name)
    }

    func testSinceIsExclusiveAndPagesAscend() {
        XCTAssertEqual(directory.users(since: 3, perPage: 4).map(\.id), [4, 5, 6, 7])
        XCTAssertEqual(directory.users(since: 48, perPage: 10).map(\.id), [49, 50])
        XCTAssertEqual(directory.users(since: 50, perPage: 10), [])
    }

    func testDataIsIdenticalAcrossInstances() {
        let other = DemoDirectory(userCount: 50)
        for id in 1...50 {
            XCTAssertEqual(directory.user(id: id), other.user(id: id))
            XCTAssertEqual(directory.repos(of: directory.user(id: id)!), other.repos(of: other.user(id: id)!))
        }
    }

    func testSomeUsersHaveRepositoriesAndSomeHaveNone() {
        let counts = (1...50).map { directory.repos(of: directory.user(id: $0)!).count }
        XCTAssertTrue(counts.contains(0))
        XCTAssertTrue(counts.contains { $0 >= 3 })
    }
}
