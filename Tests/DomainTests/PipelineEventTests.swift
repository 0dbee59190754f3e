// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import XCTest
@testable import Domain

final class PipelineEventTests: XCTestCase {
    let date = Date(timeIntervalSince1970: 1_795_538_050.125)

    func event(detail: String? = nil) -> PipelineEvent {
        PipelineEvent(id: 7, kind: .data, pipeline: "users", requestId: "req-1", stage: "avatar", timestamp: date, detail: detail)
    }

    func testTheTimestampReadsAsTheDateItWasMadeAt() {
        XCTAssertEqual(event().timestamp, "2026-11-24T16:34:10.125Z")
    }

    func testTheJSONHasEveryFieldAndNoAbsentOptional() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        XCTAssertEqual(String(decoding: try encoder.encode(event()), as: UTF8.self),
                       #"{"id":7,"kind":"data","pipeline":"users","requestId":"req-1","stage":"avatar","timestamp":"2026-11-24T16:34:10.125Z"}"#)
        var replicated = event(detail: "ada1: 164 bytes")
        replicated.replica = "r1"
        XCTAssertEqual(String(decoding: try encoder.encode(replicated), as: UTF8.self),
                       #"{"detail":"ada1: 164 bytes","id":7,"kind":"data","pipeline":"users","replica":"r1","requestId":"req-1","stage":"avatar","timestamp":"2026-11-24T16:34:10.125Z"}"#)
    }

    func testAnEventDecodedFromItsJSONEqualsIt() throws {
        let original = event(detail: "x")
        let decoded = try JSONDecoder().decode(PipelineEvent.self, from: try JSONEncoder().encode(original))
        XCTAssertEqual(decoded, original)
        XCTAssertEqual(decoded.timestamp, original.timestamp)
    }

    func testASetTimestampIsKeptAsGiven() {
        var edited = event()
        edited.timestamp = "2026-01-01T00:00:00.000Z"
        XCTAssertEqual(edited.timestamp, "2026-01-01T00:00:00.000Z")
        XCTAssertNotEqual(edited, event())
    }
}
