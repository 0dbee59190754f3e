// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
import Streams
@testable import HTTP
import HTTPTestSupport

final class KeepAliveAndPipeliningTests: XCTestCase {
    func testAnswersASimpleGet() throws {
        let server = try TestServer(router: TestServer.standardRouter)
        let client = try server.client()
        try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.bodyText, "hello")
        XCTAssertEqual(response.header("Content-Length"), "5")
        XCTAssertNotNil(response.header("Date"))
    }

    func testKeepsTheConnectionOpenForSeveralRequests() throws {
        let server = try TestServer(router: TestServer.standardRouter)
        let client = try server.client()
        for _ in 0..<3 {
            try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(try client.readResponse().bodyText, "hello")
        }
    }

    func testAnswersPipelinedRequestsInOrder() throws {
        var router = Router()
        // The first response is produced last, so only in-order writing keeps the order.
        router.get("/slow") { _ in
            DataStream { watcher in
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) {
                    watcher.data(.text("slow")); watcher.end()
                }
                return Disposable()
            }
        }
        router.get("/fast/{n}") { request in .just(.text("fast \(request.pathParameters["n"]!)")) }
        let server = try TestServer(router: router)
        let client = try server.client()
        try client.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\nGET /fast/1 HTTP/1.1\r\nHost: x\r\n\r\nGET /fast/2 HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try client.readResponse().bodyText, "slow")
        XCTAssertEqual(try client.readResponse().bodyText, "fast 1")
        XCTAssertEqual(try client.readResponse().bodyText, "fast 2")
    }

    func testClosesAfterConnectionClose() throws {
        let server = try TestServer(router: TestServer.standardRouter)
        let client = try server.client()
        try client.send("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let response = try client.readResponse()
        XCTAssertEqual(response.header("Connection"), "close")
        XCTAssertTrue(client.waitForClose())
    }

    func testParsesARequestSentOneByteAtATime() throws {
        let server = try TestServer(router: TestServer.standardRouter)
        let client = try server.client()
        for byte in Array("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc".utf8) {
            try client.send([byte])
        }
        XCTAssertEqual(try client.readResponse().bodyText, "abc")
    }
}
