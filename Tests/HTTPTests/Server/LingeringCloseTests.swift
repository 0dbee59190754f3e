// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Dispatch
import XCTest
@testable import HTTP
import HTTPTestSupport
#if canImport(Glibc)
import Glibc
#endif

final class LingeringCloseTests: XCTestCase {
    func testClientStillUploadingReadsThe413() throws {
        let server = try TestServer(router: TestServer.standardRouter) { $0.limits.maxBodyBytes = 1000 }
        let client = try server.client()
        // The client sends its whole (too large) body before reading, as curl does for small uploads.
        try client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 400000\r\n\r\n")
        try client.send([UInt8](repeating: 66, count: 400_000))
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 413)
        XCTAssertTrue(client.waitForClose())
    }

    /// 8 MB is more than both sockets' buffers hold: without the server reading it, the upload
    /// would stall and end in a reset that can destroy the answer.
    func testAClientSendingABigChunkedBodyCompletesItsUploadThenReadsThe413AndACleanEnd() throws {
        let server = try TestServer(router: TestServer.standardRouter) { $0.limits.maxBodyBytes = 1000 }
        let client = try server.client()
        try client.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        let chunk = Array("10000\r\n".utf8) + [UInt8](repeating: 66, count: 0x10000) + Array("\r\n".utf8)
        for _ in 0..<128 { try client.send(chunk) }
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 413)
        XCTAssertEqual(Self.endOfStream(client.fd), 0, "the server half-closes (FIN) instead of resetting the connection")
    }

    func testA431IsFollowedByACleanEndOfStreamEvenWithUnreadInput() throws {
        let server = try TestServer(router: TestServer.standardRouter)
        let client = try server.client()
        let fields = String(repeating: "X-A: b\r\n", count: 101)
        try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\(fields)\r\n" + String(repeating: "more input the server never parses\r\n", count: 2000))
        XCTAssertEqual(try client.readResponse().status, 431)
        XCTAssertEqual(Self.endOfStream(client.fd), 0, "the server half-closes (FIN) instead of resetting the connection")
    }

    /// What `recv` returns after the response: 0 at a clean end of stream, else the errno (ECONNRESET for a reset).
    private static func endOfStream(_ fd: Int32) -> Int32 {
        var byte: UInt8 = 0
        let n = recv(fd, &byte, 1, 0)
        return n == 0 ? 0 : n > 0 ? -1 : errno
    }
}
