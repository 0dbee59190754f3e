// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import HTTP

/// A recorded SERVER span ends with its path and its route's shared attributes
/// (`ServerSpanAttributes`); the list built whole per span is their slow twin.
final class ServerSpanAttributesTests: XCTestCase {
    private let parts: [(method: String, scheme: String, authority: String?, major: Int, minor: Int, pattern: String?, status: Int)] = [
        ("GET", "http", "127.0.0.1:29300", 1, 1, "/health", 200), ("GET", "https", "example.com", 2, 0, "/users/{login}", 404),
        ("POST", "http", nil, 1, 0, nil, 503), ("GET", "http", "[::1]:9000", 1, 1, "/users", 500),
    ]

    func testThePathBeforeTheRoutesSharedSetIsTheListBuiltWhole() {
        let memo = ServerSpanAttributes()
        for part in parts {
            let route = memo.route(
                method: part.method, scheme: part.scheme, authority: part.authority, major: part.major, minor: part.minor, pattern: part.pattern)
            var shared: SpanAttributeList = ["url.path": .string("/some/path")]
            for entry in route.shared(status: part.status).list.entries { shared.append(entry.key, stored: entry.stored) }
            let whole = ServerSpan.attributeList(
                method: part.method, path: "/some/path", scheme: part.scheme, major: part.major, minor: part.minor, authority: part.authority,
                route: part.pattern, status: part.status, completed: true)
            XCTAssertEqual(shared, whole, "\(part)")
            XCTAssertEqual(route.name, part.pattern.map { "\(part.method) \($0)" })
        }
    }

    func testARoutesPartsAndStatusAreMadeOnceAndKept() {
        let memo = ServerSpanAttributes()
        let first = memo.route(method: "GET", scheme: "http", authority: "a:1", major: 1, minor: 1, pattern: "/health")
        let again = memo.route(method: "GET", scheme: "http", authority: "a:1", major: 1, minor: 1, pattern: "/health")
        XCTAssertTrue(first === again)
        XCTAssertTrue(first.shared(status: 200) === again.shared(status: 200))
        XCTAssertFalse(first === memo.route(method: "GET", scheme: "http", authority: "a:2", major: 1, minor: 1, pattern: "/health"))
        XCTAssertFalse(first === memo.route(method: "GET", scheme: "http", authority: "a:1", major: 2, minor: 0, pattern: "/health"))
        XCTAssertTrue(first.shared(status: 503) === again.shared(status: 503))
        XCTAssertFalse(first.shared(status: 200) === first.shared(status: 204))
    }

    func testTheMemoKeepsItsLatestRoutesOnly() {
        let memo = ServerSpanAttributes()
        let oldest = memo.route(method: "GET", scheme: "http", authority: "host0", major: 1, minor: 1, pattern: "/")
        for index in 1...ServerSpanAttributes.capacity {
            _ = memo.route(method: "GET", scheme: "http", authority: "host\(index)", major: 1, minor: 1, pattern: "/")
        }
        XCTAssertFalse(oldest === memo.route(method: "GET", scheme: "http", authority: "host0", major: 1, minor: 1, pattern: "/"))
    }
}
