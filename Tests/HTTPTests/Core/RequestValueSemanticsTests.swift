// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore
import XCTest
@testable import HTTP

/// `Request` keeps its fields in a box its copies share (`RequestStorage`): a copy that changes a
/// field must leave every other copy as it was, as a struct of plain fields would.
final class RequestValueSemanticsTests: XCTestCase {
    private func original() -> Request {
        Request(method: .get, target: "/users?since=5", headers: ["Accept": "*/*"], body: Array("hi".utf8), id: "r-1", remoteAddress: "127.0.0.1:5000")
    }

    func testChangingEveryFieldOfACopyLeavesTheOriginalAsItWas() {
        let request = original()
        var copy = request
        copy.method = .post
        copy.scheme = "https"
        copy.target = "/other"
        copy.path = "/other"
        copy.query = QueryItems(parsing: "page=2")
        copy.version = HTTPVersion(major: 2, minor: 0)
        copy.headers.add(name: "X-Extra", value: "1")
        copy.body.append(contentsOf: Array("!".utf8))
        copy.pathParameters["login"] = "octocat"
        copy.routePattern = "/users/{login}"
        copy.id = "r-2"
        copy.remoteAddress = "[::1]:6000"
        copy.peerAddress = IPAddress("::1")
        copy.trace = TraceIdentity(traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")

        XCTAssertEqual(request.method, .get)
        XCTAssertEqual(request.scheme, "http")
        XCTAssertEqual(request.target, "/users?since=5")
        XCTAssertEqual(request.path, "/users")
        XCTAssertEqual(request.query["since"], "5")
        XCTAssertNil(request.query["page"])
        XCTAssertEqual(request.version, .http1_1)
        XCTAssertEqual(request.headers.map(\.name), ["Accept"])
        XCTAssertEqual(request.bodyText, "hi")
        XCTAssertEqual(request.pathParameters, [:])
        XCTAssertNil(request.routePattern)
        XCTAssertEqual(request.id, "r-1")
        XCTAssertEqual(request.remoteAddress, "127.0.0.1:5000")
        XCTAssertNil(request.peerAddress)
        XCTAssertNil(request.trace)
    }

    func testACopyKeepsTheFieldsItDidNotChange() {
        var request = original()
        request.routePattern = "/users"
        request.pathParameters["page"] = "1"
        var copy = request
        copy.id = "r-2"
        XCTAssertEqual(copy.routePattern, "/users")
        XCTAssertEqual(copy.pathParameters, ["page": "1"])
        XCTAssertEqual(copy.query["since"], "5")
        XCTAssertEqual(copy.bodyText, "hi")
        XCTAssertEqual(copy.id, "r-2")
        XCTAssertEqual(request.id, "r-1")
    }

    func testARequestNotSharedChangesInPlace() {
        var request = original()
        let before = request.storageIdentity
        request.routePattern = "/users"
        request.headers.add(name: "X-Extra", value: "1")
        XCTAssertEqual(request.storageIdentity, before, "an unshared request must not copy its fields to change one")
    }
}
