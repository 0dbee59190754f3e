// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import XCTest

/// `SharedSpanAttributes.kept`, the unretained read of what `memo` kept, against `memo` itself.
final class SharedSpanAttributesTests: XCTestCase {
    private final class Made: Sendable {
        init(_ list: SpanAttributeList) {}
    }

    private final class Other: Sendable {
        init(_ list: SpanAttributeList) {}
    }

    func testNothingIsKeptBeforeMemoMakesIt() {
        let shared = SharedSpanAttributes(["server.port": .int64(1)])
        XCTAssertNil(shared.kept(Made.self))
    }

    func testKeptIsWhatMemoKept() {
        let shared = SharedSpanAttributes(["server.port": .int64(1)])
        let made = shared.memo(Made.init)
        XCTAssertTrue(shared.kept(Made.self)?.takeUnretainedValue() === made)
        XCTAssertTrue(shared.memo(Made.init) === made)
    }

    func testAnotherTypeThanTheOneKeptIsNotKept() {
        let shared = SharedSpanAttributes(["server.port": .int64(1)])
        _ = shared.memo(Made.init)
        _ = shared.memo(Other.init)
        XCTAssertNil(shared.kept(Other.self))
    }
}
