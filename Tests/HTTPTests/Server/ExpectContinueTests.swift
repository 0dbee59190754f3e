// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import HTTP
import HTTPTestSupport

/// `100 Continue` invites a body; a request the router will refuse gets no invitation.
final class ExpectContinueTests: XCTestCase {
    /// The body is sent with the head, as a client that stopped waiting for `100 Continue` does:
    /// the first answer read is then the final one, with no `100` before it.
    private func firstAnswer(to head: String) throws -> Int {
        let server = try TestServer(router: TestServer.standardRouter)
        let client = try server.client()
        try client.send(head + "Expect: 100-continue\r\nContent-Length: 4\r\n\r\ndata")
        return try client.readResponse().status
    }

    func testAPostToAGetOnlyRouteGets405WithoutContinue() throws {
        XCTAssertEqual(try firstAnswer(to: "POST /hello HTTP/1.1\r\nHost: x\r\n"), 405)
    }

    func testAPostToAnUnknownPathGets404WithoutContinue() throws {
        XCTAssertEqual(try firstAnswer(to: "POST /nowhere HTTP/1.1\r\nHost: x\r\n"), 404)
    }

    func testAPostToARouteThatTakesItStillGetsContinueFirst() throws {
        XCTAssertEqual(try firstAnswer(to: "POST /echo HTTP/1.1\r\nHost: x\r\n"), 100)
    }
}
