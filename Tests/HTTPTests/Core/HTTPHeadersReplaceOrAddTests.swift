// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import XCTest

/// `replaceOrAdd` rewrites the list only when it holds the name.
final class HTTPHeadersReplaceOrAddTests: XCTestCase {
    func testAFieldOfTheNameInAnyCaseIsReplacedAndTheOthersKeptInOrder() {
        var fields: HTTPHeaders = ["Accept": "*/*", "TraceParent": "old", "User-Agent": "x"]
        fields.add(name: "traceparent", value: "older")
        fields.replaceOrAdd(name: "traceparent", value: "new")
        XCTAssertEqual(fields.map(\.name), ["Accept", "User-Agent", "traceparent"])
        XCTAssertEqual(fields.map(\.value), ["*/*", "x", "new"])
    }

    func testAnAbsentNameIsAppended() {
        var fields: HTTPHeaders = ["Accept": "*/*"]
        fields.replaceOrAdd(name: "traceparent", value: "new")
        XCTAssertEqual(fields.map(\.name), ["Accept", "traceparent"])
        var empty = HTTPHeaders()
        empty.replaceOrAdd(name: "traceparent", value: "new")
        XCTAssertEqual(empty.map(\.value), ["new"])
    }

    func testAListWithNoStorageYetGetsTheFieldAsAListWithRoomDoes() {
        var fresh = HTTPHeaders()
        var withRoom: HTTPHeaders = ["x": "1"]
        withRoom.remove(name: "x")
        for (name, value) in [("traceparent", "00-a-b-01"), ("tracestate", "v=1"), ("TraceParent", "00-c-d-01")] {
            fresh.replaceOrAdd(name: name, value: value)
            withRoom.replaceOrAdd(name: name, value: value)
        }
        XCTAssertEqual(fresh, withRoom)
        XCTAssertEqual(fresh.map(\.name), ["tracestate", "TraceParent"])
    }
}
