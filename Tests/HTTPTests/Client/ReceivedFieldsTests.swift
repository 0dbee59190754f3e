// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import HTTP

/// The fields of a parsed answer, kept as bytes: read by name in any case, in the order received.
final class ReceivedFieldsTests: XCTestCase {
    private func fields(_ lines: [String]) throws -> ReceivedFields {
        var parser = HTTPResponseParser()
        let wire = "HTTP/1.1 200 OK\r\n" + lines.map { $0 + "\r\n" }.joined() + "Content-Length: 0\r\n\r\n"
        guard case .complete(let response, _) = try parser.feed(Array(wire.utf8)) else {
            XCTFail("incomplete")
            return ReceivedFields()
        }
        return try XCTUnwrap(response.received, "a parsed answer keeps its fields as received")
    }

    func testAFieldIsFoundByNameInAnyCase() throws {
        let received = try fields(["Content-Type: image/png", "X-RateLimit-Remaining: 4999"])
        XCTAssertEqual(received["content-type"], "image/png")
        XCTAssertEqual(received["X-RATELIMIT-REMAINING"], "4999")
        XCTAssertNil(received["content-typf"])
        XCTAssertNil(received["Content-Typ"])
    }

    func testTheFirstValueOfARepeatedFieldIsItsSubscript() throws {
        let received = try fields(["Vary: Accept", "vary: Origin"])
        XCTAssertEqual(received["Vary"], "Accept")
    }

    func testRepeatedFieldsCombineWithACommaInOrder() throws {
        let received = try fields(["Vary: Accept", "ETag: \"a\"", "vary: Origin"])
        XCTAssertEqual(received.combinedValue(for: "vary"), "Accept, Origin")
        XCTAssertEqual(received.combinedValue(for: "etag"), "\"a\"")
        XCTAssertNil(received.combinedValue(for: "link"))
    }

    func testTheListKeepsEveryFieldAsSentInOrder() throws {
        let received = try fields(["X-A: 1", "x-b:  two  ", "X-A: 3"])
        XCTAssertEqual(received.count, 4)
        XCTAssertEqual(received.headers.map(\.name), ["X-A", "x-b", "X-A", "Content-Length"])
        XCTAssertEqual(received.headers.map(\.value), ["1", "two", "3", "0"])
    }

    func testMoreFieldsThanTheRoomMadeUpFrontAreAllKept() throws {
        let lines = (0..<45).map { "X-Field-\($0): value \($0)" }
        let received = try fields(lines)
        XCTAssertEqual(received.count, 46)
        XCTAssertEqual(received["x-field-0"], "value 0")
        XCTAssertEqual(received["X-Field-44"], "value 44")
        XCTAssertEqual(received["content-length"], "0")
    }

    func testAnAnswerWithOnlyAStatusLineHasNoFields() throws {
        var parser = HTTPResponseParser(requestMethod: .head)
        guard case .complete(let response, _) = try parser.feed(Array("HTTP/1.1 204 No Content\r\n\r\n".utf8)) else {
            return XCTFail("incomplete")
        }
        XCTAssertEqual(response.received?.count, 0)
        XCTAssertTrue(response.headers.isEmpty)
    }

    func testSettingTheHeadersReplacesTheReceivedFields() throws {
        var parser = HTTPResponseParser()
        guard case .complete(var response, _) = try parser.feed(Array("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n".utf8)) else {
            return XCTFail("incomplete")
        }
        response.headers = ["X-New": "1"]
        XCTAssertNil(response.received)
        XCTAssertEqual(response.header("x-new"), "1")
        XCTAssertNil(response.header("content-length"))
    }

    /// Fields listed (an HTTP/2 head's slow twin, in the layout its decoder writes) read as the parsed ones do.
    func testListedFieldsReadAsParsedOnes() throws {
        let lines = ["Content-Type: image/png", "Vary: Accept", "vary: Origin", "X-Empty: ", "ETag: \"v1\""]
        let parsed = try fields(lines)
        let listed = ReceivedFields(listing: parsed.headers.map { (name: $0.name, value: $0.value) })
        XCTAssertEqual(listed, parsed)
        XCTAssertEqual(listed.count, parsed.count)
        XCTAssertEqual(listed.combinedValue(for: "VARY"), "Accept, Origin")
        XCTAssertEqual(listed["x-empty"], "")
        XCTAssertTrue(ReceivedFields(listing: []).isEmpty)
    }
}
