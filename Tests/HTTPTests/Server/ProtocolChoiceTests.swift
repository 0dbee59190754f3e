// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import HTTP
import HTTPTestSupport

/// A connection whose first bytes have not chosen its protocol yet (a prefix of HTTP/2's preface)
/// belongs to neither protocol: the connection itself times it out and closes it at a shutdown.
final class ProtocolChoiceTests: XCTestCase {
    private let prefaceStart = "PRI * HTTP/2.0\r\n"

    func testAConnectionStillSendingTheHTTP2PrefaceIsClosedAtTheHeaderTimeoutWithoutAnAnswer() throws {
        let server = try TestServer(router: TestServer.standardRouter) { $0.timeouts.header = .milliseconds(300) }
        let client = try server.client()
        try client.send(prefaceStart)
        XCTAssertTrue(client.waitForClose())
        XCTAssertTrue(client.unread.isEmpty)
    }

    func testAConnectionThatHasNotChosenItsProtocolClosesAtAGracefulShutdownBeforeTheDeadline() throws {
        let server = try TestServer(router: TestServer.standardRouter)
        let client = try server.client()
        try client.send(prefaceStart)
        let http = server.server
        waitUntil("the connection accepted") { http.openConnections == 1 }
        let stopped = expectation(description: "shutdown completed")
        server.server.shutdown(deadline: .seconds(30)) { stopped.fulfill() }
        XCTAssertTrue(client.waitForClose())
        wait(for: [stopped], timeout: 5)
        XCTAssertTrue(client.unread.isEmpty)
    }
}
