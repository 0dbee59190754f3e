// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import HTTP

final class RequestTests: XCTestCase {
    private let http2 = HTTPVersion(major: 2, minor: 0)

    private func neutral(authority: String? = "example.com", path: String = "/users?since=5", fields: HTTPHeaders = ["Accept": "*/*"]) -> Request {
        Request(
            method: .get, scheme: "https", authority: authority, path: path, headerFields: fields,
            body: Array("hi".utf8), version: http2, id: "r-1", remoteAddress: "[::1]:5000")
    }

    func testANeutralRequestSplitsItsPathAsAnHTTP1TargetIsSplit() {
        let request = neutral(path: "/%7Eu?since=5")
        XCTAssertEqual(request.target, "/%7Eu?since=5")
        XCTAssertEqual(request.path, "/~u")
        XCTAssertEqual(request.query["since"], "5")
    }

    func testANeutralRequestKeepsItsSchemeVersionBodyAndIdentity() {
        let request = neutral()
        XCTAssertEqual(request.scheme, "https")
        XCTAssertEqual(request.version, http2)
        XCTAssertEqual(request.bodyText, "hi")
        XCTAssertEqual(request.id, "r-1")
        XCTAssertEqual(request.remoteAddress, "[::1]:5000")
    }

    func testTheAuthorityBecomesTheHostFieldWhenThereIsNone() {
        let request = neutral()
        XCTAssertEqual(request.headers["Host"], "example.com")
        XCTAssertEqual(request.authority, "example.com")
        XCTAssertEqual(request.headers.map(\.name), ["Accept", "Host"])
    }

    func testAHostFieldSentWithTheAuthorityIsKeptAsSent() {
        let request = neutral(authority: "example.com", fields: ["Host": "example.com"])
        XCTAssertEqual(request.headers.values(for: "Host"), ["example.com"])
    }

    func testWithoutAnAuthorityOrHostThereIsNoAuthority() {
        XCTAssertNil(neutral(authority: nil).authority)
    }

    func testAnHTTP1RequestIsTheSameRequestAsItsNeutralParts() throws {
        var parser = RequestParser()
        var heads: [RequestHead] = []
        Array("GET /a%20b?x=1 HTTP/1.1\r\nHost: h:8\r\nAccept: */*\r\n\r\n".utf8).withUnsafeBytes { bytes in
            parser.feed(bytes) { if case .request(let head, _, _) = $0 { heads.append(head) } }
        }
        let head = try XCTUnwrap(heads.first)
        let parsed = Request(head: head, scheme: "http", body: [], id: "", remoteAddress: "", peerAddress: nil, loopScheduler: nil)
        let made = Request(
            method: .get, scheme: "http", authority: "h:8", path: "/a%20b?x=1", headerFields: ["Host": "h:8", "Accept": "*/*"],
            body: [], version: .http1_1)
        XCTAssertEqual(parsed.method, made.method)
        XCTAssertEqual(parsed.target, made.target)
        XCTAssertEqual(parsed.path, "/a b")
        XCTAssertEqual(parsed.path, made.path)
        XCTAssertEqual(parsed.query["x"], made.query["x"])
        XCTAssertEqual(parsed.headers, made.headers)
        XCTAssertEqual(parsed.authority, made.authority)
    }

    func testANeutralRequestRoutesAsAnHTTP1RequestDoes() {
        var router = Router()
        router.get("/users/{login}") { _ in .just(.text("user")) }
        var request = neutral(path: "/users/octocat?x=1")
        _ = router.route(&request)
        XCTAssertEqual(request.routePattern, "/users/{login}")
        XCTAssertEqual(request.pathParameters, ["login": "octocat"])
    }

    func testKeepAliveFollowsTheVersionAndTheConnectionOptions() {
        let cases: [(HTTPVersion, HTTPHeaders, Bool)] = [
            (.http1_1, [:], true), (.http1_1, ["Connection": "Upgrade, close"], false),
            (.http1_0, [:], false), (.http1_0, ["Connection": "keep-alive"], true),
        ]
        for (version, headers, expected) in cases {
            let request = Request(method: .get, target: "/", version: version, headers: headers)
            XCTAssertEqual(request.wantsKeepAlive, expected, "\(version) \(headers)")
        }
    }
}
