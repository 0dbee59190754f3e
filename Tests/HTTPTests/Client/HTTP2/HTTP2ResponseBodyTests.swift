// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import HTTP

/// A gzip answer's fields kept as bytes (`HTTP2ResponseBody.inflatedFields`) against its slow
/// twin, the list of `String`s the HTTP/1.1 parser changes (`inflatedHeaders`).
final class HTTP2ResponseBodyTests: XCTestCase {
    private func assertTwinsAgree(_ fields: [(name: String, value: String)], length: Int, file: StaticString = #filePath, line: UInt = #line) {
        let received = ReceivedFields(listing: fields)
        let fast = HTTP2ResponseBody.inflatedFields(received, length: length)
        let slow = HTTP2ResponseBody.inflatedHeaders(received, length: length)
        XCTAssertEqual(fast.headers, slow, file: file, line: line)
        XCTAssertEqual(fast["content-length"], String(length), file: file, line: line)
        XCTAssertNil(fast["content-encoding"], file: file, line: line)
    }

    func testInflatedFieldsAgreeWithTheSlowTwinForAGitHubStyleHead() {
        assertTwinsAgree([
            ("date", "Thu, 03 Dec 2026 08:04:16 GMT"), ("content-encoding", "gzip"), ("content-length", "812"),
            ("content-type", "application/json; charset=utf-8"), ("etag", #"W/"d7da53573e78ff62""#),
            ("link", #"<http://127.0.0.1/users?since=30>; rel="next""#), ("x-ratelimit-remaining", "4999"), ("vary", "Accept-Encoding"),
        ], length: 26659)
    }

    func testInflatedFieldsAgreeWithTheSlowTwinWithoutAContentLength() {
        assertTwinsAgree([("content-encoding", "gzip"), ("server", "s")], length: 10)
    }

    func testInflatedFieldsAgreeWithTheSlowTwinWithRepeatedAndUppercaseNames() {
        assertTwinsAgree([
            ("Content-Length", "1"), ("content-encoding", "gzip"), ("set-cookie", "a"), ("CONTENT-ENCODING", "br"),
            ("content-length", "1"), ("set-cookie", "b"),
        ], length: 0)
    }

    func testInflatedFieldsAgreeWithTheSlowTwinForNoFields() {
        assertTwinsAgree([], length: 5)
    }
}
