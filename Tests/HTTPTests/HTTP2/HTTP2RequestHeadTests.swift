// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import HTTP

/// A request's header block against RFC 9113 §8.2–8.3: what is malformed, and how the rest becomes
/// the fields an HTTP/1.1 reader expects.
final class HTTP2RequestHeadTests: XCTestCase {
    private let base: [(name: String, value: String)] = [(":method", "GET"), (":scheme", "https"), (":path", "/users?limit=5"), (":authority", "example.test")]

    private func reason(_ block: [(name: String, value: String)]) -> String? {
        do {
            _ = try HTTP2RequestHead(validating: block)
            return nil
        } catch {
            return error.reason
        }
    }

    func testPseudoHeadersAreSplitFromTheFields() throws {
        let head = try HTTP2RequestHead(validating: base + [("accept", "*/*")])
        XCTAssertEqual([head.method, head.scheme, head.authority, head.path], ["GET", "https", "example.test", "/users?limit=5"])
        XCTAssertEqual(head.fields.map { "\($0.name): \($0.value)" }, ["accept: */*"])
    }

    func testCookieCrumbsAreJoinedIntoOneField() throws {
        let head = try HTTP2RequestHead(validating: base + [("cookie", "a=1"), ("accept", "*/*"), ("cookie", "b=2")])
        XCTAssertEqual(head.fields.values(for: "cookie"), ["a=1; b=2"])
    }

    func testUppercaseNameIsMalformed() {
        XCTAssertEqual(reason(base + [("Accept", "*/*")]), "uppercase field name Accept")
    }

    func testConnectionSpecificFieldIsMalformed() {
        XCTAssertEqual(reason(base + [("connection", "keep-alive")]), "connection-specific field connection")
        XCTAssertEqual(reason(base + [("te", "gzip")]), "te field other than \"trailers\"")
        XCTAssertNil(reason(base + [("te", "trailers")]))
    }

    func testPseudoHeaderAfterARegularFieldIsMalformed() {
        XCTAssertEqual(reason([(":method", "GET"), ("accept", "*/*"), (":scheme", "https"), (":path", "/")]), "pseudo-header :scheme after a regular field")
    }

    func testMissingOrEmptyPathIsMalformed() {
        XCTAssertEqual(reason([(":method", "GET"), (":scheme", "https")]), ":path missing or empty")
        XCTAssertEqual(reason([(":method", "GET"), (":scheme", "https"), (":path", "")]), ":path missing or empty")
    }

    func testMethodThatIsNotATokenIsMalformed() {
        XCTAssertEqual(reason([(":method", "GE T"), (":scheme", "https"), (":path", "/")]), ":method is not a token")
        XCTAssertEqual(reason([(":method", "GET/1"), (":scheme", "https"), (":path", "/")]), ":method is not a token")
        XCTAssertEqual(reason([(":method", ""), (":scheme", "https"), (":path", "/")]), ":method is not a token")
        XCTAssertNil(reason([(":method", "PROPFIND"), (":scheme", "https"), (":path", "/")]), "an unknown method is a token all the same")
    }

    func testResponsePseudoHeaderIsMalformed() {
        XCTAssertEqual(reason(base + [(":status", "200")]), "pseudo-header :status is not a request's")
    }

    func testDifferingContentLengthsAreMalformed() {
        XCTAssertNotNil(reason(base + [("content-length", "3"), ("content-length", "4")]))
        XCTAssertNotNil(reason(base + [("content-length", "-1")]))
    }

    func testContentLengthIsDigitsOnlyAsOverHTTP11() {
        XCTAssertEqual(reason(base + [("content-length", "+5")]), "content-length +5 is not one non-negative number")
        XCTAssertEqual(reason(base + [("content-length", "1234567890123456")]), "content-length 1234567890123456 is not one non-negative number")
        XCTAssertNil(reason(base + [("content-length", "5")]))
    }

    func testValueWithLineBreakOrEdgeWhitespaceIsMalformed() {
        XCTAssertEqual(reason(base + [("x-a", "1\r\nx-b: 2")]), "field x-a has NUL, CR or LF in its value")
        XCTAssertEqual(reason(base + [("x-a", " 1")]), "field x-a value starts with whitespace")
    }

    func testResponseFieldsDropConnectionSpecificOnesAndLowercaseNames() {
        let fields = HTTP2ResponseFields.fields(
            status: .ok, headers: ["Content-Type": "text/plain", "Connection": "close", "Transfer-Encoding": "chunked", "X-Request-ID": "theirs"],
            contentLength: 5, serverName: "S", requestID: "ours", date: Array("D".utf8))
        XCTAssertEqual(fields.map { "\($0.name): \($0.value)" },
                       [":status: 200", "date: D", "server: S", "content-length: 5", "content-type: text/plain", "x-request-id: ours"])
    }
}
