// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import HTTP
import HTTPTestSupport

final class RequestLimitTests: XCTestCase {
    func testOverlongRequestLineIsAnswered414AndClosed() throws {
        let server = try TestServer(router: TestServer.standardRouter)
        let client = try server.client()
        try client.send("GET /" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 414)
        XCTAssertEqual(response.header("Content-Type"), "application/problem+json")
        XCTAssertTrue(client.waitForClose())
    }

    func testOversizedHeaderBlockIsAnswered431AndClosed() throws {
        let server = try TestServer(router: TestServer.standardRouter)
        let client = try server.client()
        let filler = (0..<40).map { "X-Fill-\($0): \(String(repeating: "v", count: 1000))\r\n" }.joined()
        try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\(filler)\r\n")
        XCTAssertEqual(try client.readResponse().status, 431)
        XCTAssertTrue(client.waitForClose())
    }

    func testTooManyHeaderFieldsIsAnswered431() throws {
        let server = try TestServer(router: TestServer.standardRouter)
        let client = try server.client()
        let fields = (0..<101).map { "X-F\($0): 1\r\n" }.joined()
        try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\(fields)\r\n")
        XCTAssertEqual(try client.readResponse().status, 431)
        XCTAssertTrue(client.waitForClose())
    }

    func testDeclaredBodyOverTheLimitIsAnswered413WithoutReadingIt() throws {
        let server = try TestServer(router: TestServer.standardRouter)
        let client = try server.client()
        try client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000000000\r\n\r\n")
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 413)
        XCTAssertEqual(response.bodyJSON?["status"] as? Int, 413)
        XCTAssertTrue(client.waitForClose())
    }

    func testChunkedBodyGrowingOverTheLimitIsAnswered413() throws {
        let server = try TestServer(router: TestServer.standardRouter) { $0.limits.maxBodyBytes = 1000 }
        let client = try server.client()
        let chunk = "200\r\n" + String(repeating: "z", count: 512) + "\r\n"
        try client.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" + chunk + chunk)
        XCTAssertEqual(try client.readResponse().status, 413)
        XCTAssertTrue(client.waitForClose())
    }

    func testBodyAtTheLimitIsAccepted() throws {
        let server = try TestServer(router: TestServer.standardRouter) { $0.limits.maxBodyBytes = 1000 }
        let client = try server.client()
        try client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n" + String(repeating: "q", count: 1000))
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.body.count, 1000)
    }
}
