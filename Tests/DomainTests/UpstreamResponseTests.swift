// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import XCTest
@testable import Domain

final class UpstreamResponseTests: XCTestCase {
    let received = HTTPClientResponse(
        status: .ok, headers: ["Content-Type": "image/png", "Vary": "Accept", "vary": "Origin", "ETag": "\"a\""], body: [1, 2])

    func testAReceivedAnswerIsLookedUpByNameInAnyCase() {
        let response = UpstreamResponse(received)
        XCTAssertEqual(response.header("content-type"), "image/png")
        XCTAssertEqual(response.header("CONTENT-TYPE"), "image/png")
        XCTAssertNil(response.header("location"))
    }

    func testRepeatedReceivedFieldsAreJoinedInOrder() {
        XCTAssertEqual(UpstreamResponse(received).header("Vary"), "Accept, Origin")
    }

    func testAReceivedAnswersDictionaryHasLowerCasedNamesAndJoinedValues() {
        XCTAssertEqual(UpstreamResponse(received).headers, ["content-type": "image/png", "vary": "Accept, Origin", "etag": "\"a\""])
    }

    func testAReceivedAnswerEqualsTheSameAnswerGivenAsADictionary() {
        let given = UpstreamResponse(status: 200, headers: ["Content-Type": "image/png", "vary": "Accept, Origin", "etag": "\"a\""], body: [1, 2])
        XCTAssertEqual(UpstreamResponse(received), given)
    }

    func testSettingTheHeadersReplacesTheReceivedFields() {
        var response = UpstreamResponse(received)
        response.headers = ["location": "/next"]
        XCTAssertEqual(response.header("Location"), "/next")
        XCTAssertNil(response.header("content-type"))
    }
}
