// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import HTTP
import HTTPTestSupport

final class ProtocolVersionTests: XCTestCase {
    func testHTTP10ClosesByDefault() throws {
        let server = try TestServer(router: TestServer.standardRouter)
        let client = try server.client()
        try client.send("GET /hello HTTP/1.0\r\n\r\n")
        let response = try client.readResponse()
        XCTAssertEqual(response.version, "HTTP/1.0")
        XCTAssertEqual(response.bodyText, "hello")
        XCTAssertTrue(client.waitForClose())
    }

    func testHTTP10KeepAliveIsHonoured() throws {
        let server = try TestServer(router: TestServer.standardRouter)
        let client = try server.client()
        for _ in 0..<2 {
            try client.send("GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            let response = try client.readResponse()
            XCTAssertEqual(response.header("Connection"), "keep-alive")
            XCTAssertEqual(response.bodyText, "hello")
        }
    }

    func testHeadSendsHeadersWithoutBody() throws {
        let server = try TestServer(router: TestServer.standardRouter)
        let client = try server.client()
        try client.send("HEAD /hello HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        let head = try client.readResponse(forHead: true)
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.header("Content-Length"), "5")
        // The next response starts right after the head: no body bytes came in between.
        XCTAssertEqual(try client.readResponse().bodyText, "hello")
    }
}
