// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import HTTP
import HTTPTestSupport

/// `maxConnectionsPerClient`: one address cannot take every slot; other clients still get in.
final class ConnectionsPerClientTests: XCTestCase {
    /// Listening on `::` (dual stack), so 127.0.0.1 and ::1 are two different clients.
    private func server(limit: Int) throws -> TestServer {
        try TestServer(router: TestServer.standardRouter) {
            $0.host = "::"
            $0.limits.maxConnectionsPerClient = limit
        }
    }

    func testAClientOverItsLimitGets503WhileAnotherAddressIsServed() throws {
        let server = try server(limit: 2)
        let held = try (0..<2).map { _ in try RawHTTPClient(port: server.port, host: "127.0.0.1") }
        let http = server.server
        waitUntil("both connections accepted") { http.openConnections == 2 }

        let third = try RawHTTPClient(port: server.port, host: "127.0.0.1")
        let refused = try third.readResponse()
        XCTAssertEqual(refused.status, 503)
        XCTAssertEqual(refused.header("Connection"), "close")
        XCTAssertTrue(refused.bodyText.contains("Too many connections from this client (at most 2 at once); retry after 1 s"), refused.bodyText)
        XCTAssertEqual(refused.header("Retry-After"), "1")

        let other = try RawHTTPClient(port: server.port, host: "::1")
        try other.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try other.readResponse().status, 200)
        XCTAssertEqual(held.count, 2)
    }

    func testAClosedConnectionGivesItsClientTheSlotBack() throws {
        let server = try server(limit: 1)
        var first: RawHTTPClient? = try RawHTTPClient(port: server.port, host: "127.0.0.1")
        let http = server.server
        waitUntil("the first connection accepted") { http.openConnections == 1 }
        XCTAssertEqual(try RawHTTPClient(port: server.port, host: "127.0.0.1").readResponse().status, 503)
        XCTAssertNotNil(first)
        first = nil
        waitUntil("the first connection closed") { http.openConnections == 0 }
        let again = try RawHTTPClient(port: server.port, host: "127.0.0.1")
        try again.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try again.readResponse().status, 200)
    }

    func testWithoutALimitOneClientMayOpenManyConnections() throws {
        let server = try TestServer(router: TestServer.standardRouter)
        XCTAssertNil(server.server.configuration.limits.maxConnectionsPerClient)
        let clients = try (0..<20).map { _ in try server.client() }
        for client in clients {
            try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(try client.readResponse().status, 200)
        }
    }
}
