// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import XCTest

/// `Response.json(encoding:)`: one documented configuration for every JSON answer.
final class ResponseJSONEncodingTests: XCTestCase {
    private struct Link: Encodable {
        var url = "https://example.com/a/b"
        var name = "b"
        var count = 2
    }

    func testKeysAreSortedAndSlashesAreNotEscaped() throws {
        let response = try Response.json(encoding: Link())
        XCTAssertEqual(response.bodyBytes.map { String(decoding: $0, as: UTF8.self) }, #"{"count":2,"name":"b","url":"https://example.com/a/b"}"#)
    }

    func testTheContentTypeNamesUTF8AndTheStatusIsKept() throws {
        let response = try Response.json(encoding: ["ok": true], status: .created)
        XCTAssertEqual(response.headers["Content-Type"], "application/json; charset=utf-8")
        XCTAssertEqual(response.status, .created)
    }

    func testAValueTheEncoderRefusesThrows() {
        XCTAssertThrowsError(try Response.json(encoding: Double.nan))
    }
}
