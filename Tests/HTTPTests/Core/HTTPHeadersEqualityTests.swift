// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import XCTest

/// `==`: a list shared by both sides is equal at once; separate lists compare pair by pair.
final class HTTPHeadersEqualityTests: XCTestCase {
    func testACopySharingTheListIsEqualAndAChangedCopyIsNot() {
        let fields: HTTPHeaders = ["Accept": "*/*", "User-Agent": "x"]
        var copy = fields
        XCTAssertEqual(copy, fields)
        copy.replaceOrAdd(name: "User-Agent", value: "y")
        XCTAssertNotEqual(copy, fields)
    }

    func testSeparateListsOfTheSamePairsAreEqualAndOfOtherPairsOrOrderAreNot() {
        let fields: HTTPHeaders = ["Accept": "*/*", "User-Agent": "x"]
        XCTAssertEqual(fields, ["Accept": "*/*", "User-Agent": "x"])
        XCTAssertNotEqual(fields, ["User-Agent": "x", "Accept": "*/*"])
        XCTAssertNotEqual(fields, ["Accept": "*/*", "User-Agent": "X"])
        XCTAssertNotEqual(fields, ["Accept": "*/*"])
        XCTAssertEqual(HTTPHeaders(), [:])
    }
}
