// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import HTTP
import HTTPTestSupport

final class RequestBodyTests: XCTestCase {
    func testReadsAChunkedBodyWithExtensionsAndTrailers() throws {
        let server = try TestServer(router: TestServer.standardRouter)
        let client = try server.client()
        try client.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5;name=v\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: 1\r\n\r\n")
        XCTAssertEqual(try client.readResponse().bodyText, "hello world")
    }

    func testSendsContinueBeforeReadingAnExpectedBody() throws {
        let server = try TestServer(router: TestServer.standardRouter)
        let client = try server.client()
        try client.send("POST /echo HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
        XCTAssertEqual(try client.readResponse().status, 100)
        try client.send("data")
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.bodyText, "data")
    }

    func testRefusesAnExpectedBodyOverTheLimitWithoutContinue() throws {
        let server = try TestServer(router: TestServer.standardRouter) { $0.limits.maxBodyBytes = 10 }
        let client = try server.client()
        try client.send("POST /echo HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 11\r\n\r\n")
        XCTAssertEqual(try client.readResponse().status, 413)
    }
}
