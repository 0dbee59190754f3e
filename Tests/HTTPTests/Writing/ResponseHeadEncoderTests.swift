// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import HTTP

final class ResponseHeadEncoderTests: XCTestCase {
    func testNeverCopiesFramingFieldsFromTheHandler() {
        var out: [UInt8] = []
        ResponseHeadEncoder.encode(
            status: .ok, version: .http1_1, headers: ["content-length": "99", "X-A": "b\r\nInjected: yes"],
            framing: .contentLength(2), keepAlive: true, serverName: nil, into: &out
        )
        let head = String(decoding: out, as: UTF8.self)
        XCTAssertTrue(head.contains("Content-Length: 2\r\n"))
        XCTAssertFalse(head.contains("99"))
        XCTAssertFalse(head.contains("\r\nInjected"))
    }

    private func head(
        _ status: HTTPStatus = .ok, version: HTTPVersion = .http1_1, headers: HTTPHeaders = [:],
        framing: ResponseHeadEncoder.Framing = .contentLength(12), keepAlive: Bool = true,
        serverName: String? = "S", requestID: String? = nil
    ) -> String {
        var out = Array("before|".utf8)
        ResponseHeadEncoder.encode(
            status: status, version: version, headers: headers, framing: framing, keepAlive: keepAlive,
            serverName: serverName, requestID: requestID, date: Array("Tue, 24 Nov 2026 23:00:00 GMT".utf8), into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    func testWritesTheStatusLineTheServersFieldsAndTheHandlersInOrderAfterWhatTheBufferHeld() {
        XCTAssertEqual(
            head(headers: ["Content-Type": "text/plain", "X-Request-ID": "theirs", "ETag": "\"é\""], requestID: "ours"),
            "before|HTTP/1.1 200 OK\r\nDate: Tue, 24 Nov 2026 23:00:00 GMT\r\nServer: S\r\nContent-Length: 12\r\n"
                + "Content-Type: text/plain\r\nETag: \"é\"\r\nX-Request-ID: ours\r\n\r\n")
    }

    func testKeepsTheHandlersRequestIDWhenTheWriterStampsNone() {
        XCTAssertEqual(
            head(headers: ["x-request-id": "theirs"], framing: .none, serverName: nil),
            "before|HTTP/1.1 200 OK\r\nDate: Tue, 24 Nov 2026 23:00:00 GMT\r\nx-request-id: theirs\r\n\r\n")
    }

    func testSaysHowTheConnectionContinuesAndFramesAStream() {
        XCTAssertEqual(
            head(.notFound, version: .http1_0, framing: .untilClose, serverName: nil),
            "before|HTTP/1.0 404 Not Found\r\nDate: Tue, 24 Nov 2026 23:00:00 GMT\r\nConnection: keep-alive\r\n\r\n")
        XCTAssertEqual(
            head(HTTPStatus(code: 299, reasonPhrase: "Odd"), framing: .chunked, keepAlive: false, serverName: nil),
            "before|HTTP/1.1 299 Odd\r\nDate: Tue, 24 Nov 2026 23:00:00 GMT\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
    }

    func testAValueWithDroppedLineBreaksLeavesNoGapInTheHead() {
        XCTAssertEqual(
            head(headers: ["A": "x\ry\nz"], framing: .contentLength(1_234_567), serverName: nil),
            "before|HTTP/1.1 200 OK\r\nDate: Tue, 24 Nov 2026 23:00:00 GMT\r\nContent-Length: 1234567\r\nA: xyz\r\n\r\n")
    }

    func testDropsLineBreaksFromALongValueWhereverTheyStand() {
        XCTAssertEqual(
            head(headers: ["A": "0123456789abcdef\r\nInjected: 1", "B": "\n01234567"], framing: .none, serverName: nil),
            "before|HTTP/1.1 200 OK\r\nDate: Tue, 24 Nov 2026 23:00:00 GMT\r\nA: 0123456789abcdefInjected: 1\r\nB: 01234567\r\n\r\n")
    }
}
