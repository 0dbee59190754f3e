// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import HTTP
import HTTPTestSupport

final class ResponseWriterTests: XCTestCase {
    private let writer = ResponseWriter(serverName: "Test", compressor: ResponseCompressor(minimumBytes: 256))

    func testTheClosingProblemIsProblemJSONThatClosesTheConnection() throws {
        let text = String(decoding: writer.closingProblem(.requestTimeout, detail: "too slow"), as: UTF8.self)
        let (head, body) = try XCTUnwrap(text.split(separator: "\r\n\r\n", maxSplits: 1).map(String.init).pairs)
        XCTAssertTrue(head.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"), head)
        XCTAssertTrue(head.contains("\r\nConnection: close"), head)
        XCTAssertTrue(head.contains("\r\nServer: Test"), head)
        XCTAssertTrue(head.contains("\r\nContent-Type: application/problem+json"), head)
        XCTAssertTrue(head.contains("\r\nContent-Length: \(body.utf8.count)"), head)
        XCTAssertEqual(body, #"{"type":"about:blank","title":"Request Timeout","status":408,"detail":"too slow"}"#)
    }

    func testAHeadAnswerCarriesTheLengthButNoBody() {
        let request = Request(method: .head, target: "/x", id: "r1")
        let (bytes, bodyBytes) = writer.fixed(.text("hello"), body: Array("hello".utf8), for: request, keepAlive: true)
        let text = String(decoding: bytes, as: UTF8.self)
        XCTAssertTrue(text.contains("\r\nContent-Length: 5\r\n"), text)
        XCTAssertTrue(text.contains("\r\nX-Request-ID: r1\r\n"), text)
        XCTAssertTrue(text.hasSuffix("\r\n\r\n"), text)
        XCTAssertEqual(bodyBytes, 0)
    }

    func testAFixedAnswerIsAppendedWholeAfterWhatTheBufferHolds() {
        var response = Response.text("")
        for index in 0..<12 { response.headers.add(name: "X-Field-\(index)", value: String(repeating: "v", count: 40)) }
        let body = [UInt8](repeating: UInt8(ascii: "b"), count: 7000)
        var out = Array("previous".utf8)
        let bodyBytes = writer.fixed(response, body: body, for: Request(method: .get, target: "/x", id: "r2"), keepAlive: true, into: &out)
        let text = String(decoding: out, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("previousHTTP/1.1 200 OK\r\n"), text)
        XCTAssertTrue(text.contains("\r\nX-Field-11: \(String(repeating: "v", count: 40))\r\n"), text)
        XCTAssertTrue(text.hasSuffix("\r\n\r\n" + String(repeating: "b", count: 7000)))
        XCTAssertEqual(bodyBytes, 7000)
    }

    func testAFixedAnswerWithAHeadOver256BytesFitsTheCapacityItReserves() {
        var response = Response.text("")
        for index in 0..<12 { response.headers.add(name: "X-Field-\(index)", value: String(repeating: "v", count: 40)) }
        var out: [UInt8] = []
        _ = writer.fixed(response, body: [UInt8](repeating: 0x62, count: 7000), for: Request(method: .get, target: "/x"), keepAlive: true, into: &out)
        // A reserve short of the head doubles the buffer while the body goes in (about 14 KiB).
        XCTAssertLessThan(out.capacity, out.count + 512)
    }

    func testAnHTTP10StreamIsFramedByTheCloseAndEndsTheConnection() {
        var keepAlive = true
        let request = Request(method: .get, target: "/s", version: .http1_0)
        let (head, framing) = writer.streamHead(.stream(.never(), contentType: "text/plain"), for: request, keepAlive: &keepAlive)
        XCTAssertEqual(framing, .untilClose)
        XCTAssertFalse(keepAlive)
        XCTAssertFalse(String(decoding: head, as: UTF8.self).contains("Transfer-Encoding"))
        XCTAssertEqual(ResponseWriter.piece([1, 2], framing: framing), [1, 2])
        XCTAssertNil(ResponseWriter.end(framing: framing))
    }

    func testAnHTTP11StreamIsChunked() {
        var keepAlive = true
        let (head, framing) = writer.streamHead(.stream(.never(), contentType: "text/plain"), for: Request(method: .get, target: "/s"), keepAlive: &keepAlive)
        XCTAssertEqual(framing, .chunked)
        XCTAssertTrue(keepAlive)
        XCTAssertTrue(String(decoding: head, as: UTF8.self).contains("\r\nTransfer-Encoding: chunked"))
        XCTAssertEqual(ResponseWriter.end(framing: framing), Array("0\r\n\r\n".utf8))
    }
}

private extension Array where Element == String {
    var pairs: (String, String)? { count == 2 ? (self[0], self[1]) : nil }
}
