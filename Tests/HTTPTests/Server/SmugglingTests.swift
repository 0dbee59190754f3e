// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import HTTP
import HTTPTestSupport

/// Every ambiguous framing is refused with 400 and the connection closed,
/// so no second request can hide inside the first.
final class SmugglingTests: XCTestCase {
    private func assertRejected(_ request: String, status: Int = 400, file: StaticString = #filePath, line: UInt = #line) throws {
        let server = try TestServer(router: TestServer.standardRouter)
        let client = try server.client()
        try client.send(request)
        let response = try client.readResponse()
        XCTAssertEqual(response.status, status, file: file, line: line)
        XCTAssertEqual(response.header("Content-Type"), "application/problem+json", file: file, line: line)
        XCTAssertEqual(response.header("Connection"), "close", file: file, line: line)
        XCTAssertTrue(client.waitForClose(), "connection left open", file: file, line: line)
        XCTAssertTrue(client.unread.isEmpty, "a smuggled second response was sent", file: file, line: line)
    }

    func testContentLengthWithTransferEncodingIsRejected() throws {
        try assertRejected("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
    }

    func testDuplicateContentLengthIsRejected() throws {
        try assertRejected("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\nabc")
    }

    func testNegativeContentLengthIsRejected() throws {
        try assertRejected("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n")
    }

    func testNonNumericContentLengthIsRejected() throws {
        try assertRejected("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3x\r\n\r\nabc")
    }

    func testContentLengthListIsRejected() throws {
        try assertRejected("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3, 3\r\n\r\nabc")
    }

    func testBadChunkSizeIsRejected() throws {
        try assertRejected("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n")
    }

    func testChunkDataLongerThanItsSizeIsRejected() throws {
        try assertRejected("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n0\r\n\r\n")
    }

    func testTransferEncodingOtherThanChunkedIsRejected() throws {
        try assertRejected("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, identity\r\n\r\n0\r\n\r\n")
    }

    func testCarriageReturnInsideAHeaderValueIsRejected() throws {
        try assertRejected("GET /hello HTTP/1.1\r\nHost: x\r\nX-A: a\rb\r\n\r\n")
    }

    func testNulInsideAHeaderValueIsRejected() throws {
        try assertRejected("GET /hello HTTP/1.1\r\nHost: x\r\nX-A: a\u{0}b\r\n\r\n")
    }

    func testSpaceInsideAHeaderNameIsRejected() throws {
        try assertRejected("GET /hello HTTP/1.1\r\nHost: x\r\nContent-Length : 0\r\n\r\n")
    }

    func testObsoleteLineFoldingIsRejected() throws {
        try assertRejected("GET /hello HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\n\r\n")
    }

    func testHTTP11WithoutHostIsRejected() throws {
        try assertRejected("GET /hello HTTP/1.1\r\n\r\n")
    }

    func testUnsupportedHTTPVersionIsAnswered505() throws {
        try assertRejected("GET /hello HTTP/2.0\r\nHost: x\r\n\r\n", status: 505)
    }
}
