// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import HTTP
import HTTPTestSupport

final class IsolationTests: XCTestCase {
    func testABadConnectionDoesNotAffectOthers() throws {
        let server = try TestServer(router: TestServer.standardRouter)
        let good = try server.client()
        try good.send("GET /hello HTTP/1.1\r\nHost: x\r\n")   // half a request, finished below
        let bad = try server.client()
        try bad.send("GET /hello HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n")
        XCTAssertEqual(try bad.readResponse().status, 400)
        XCTAssertTrue(bad.waitForClose())
        try good.send("\r\n")
        XCTAssertEqual(try good.readResponse().bodyText, "hello")
        try good.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try good.readResponse().bodyText, "hello")
    }

    func testManyConcurrentClientsAreAllServed() throws {
        let server = try TestServer(router: TestServer.standardRouter)
        let clients = try (0..<200).map { _ in try server.client() }
        for client in clients { try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n") }
        for client in clients { XCTAssertEqual(try client.readResponse().bodyText, "hello") }
        XCTAssertEqual(server.server.openConnections, 200)
    }

    func testConnectionsOverTheLimitGet503() throws {
        let server = try TestServer(router: TestServer.standardRouter) { $0.limits.maxConnections = 2 }
        let first = try server.client(), second = try server.client()
        try first.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        try second.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try first.readResponse(); _ = try second.readResponse()
        let third = try server.client()
        let refused = try third.readResponse()
        XCTAssertEqual(refused.status, 503)
        XCTAssertEqual(refused.header("Content-Type"), "application/problem+json")
        XCTAssertEqual(refused.header("Connection"), "close")
        XCTAssertEqual(refused.bodyJSON?["detail"] as? String, "Too many connections: the server holds its limit of 2 at once; retry after 1 s")
    }

    /// A refusal of load that passes says when to come back (RFC 9110 §10.2.3), so a client
    /// neither hammers the full server nor gives up.
    func testAConnectionOverTheLimitIsToldWhenToRetry() throws {
        let server = try TestServer(router: TestServer.standardRouter) { $0.limits.maxConnections = 1 }
        let first = try server.client()
        try first.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try first.readResponse()
        let refused = try server.client().readResponse()
        XCTAssertEqual(refused.status, 503)
        XCTAssertEqual(refused.header("Retry-After"), "1")
        XCTAssertEqual(refused.header("Cache-Control"), "no-store")
    }

    func testRequestCompletionIsReported() throws {
        let reported = expectation(description: "completion reported")
        let observer = HTTPServerObserver(requestCompleted: { record in
            if record.routePattern == "/users/{login}/avatar" && record.status == 200 && record.method == .get && record.bodyBytes == 17 {
                reported.fulfill()
            }
        })
        let server = try TestServer(router: TestServer.standardRouter, observer: observer)
        let client = try server.client()
        try client.send("GET /users/octocat/avatar HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try client.readResponse()
        wait(for: [reported], timeout: 5)
    }
}
