// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Domain
import XCTest
@testable import Server

/// How a shared-stream entry becomes an `/events` item.
final class SharedFeedItemTests: XCTestCase {
    func testTheEntryIdReplacesTheEventsIdEvenWhenTheDetailQuotesOne() throws {
        var event = PipelineEvent(kind: .error, pipeline: "users", requestId: "r", stage: "s", detail: #"upstream said {"id":0, "x":1}"#)
        event.id = 0
        let entry = SharedFeedIngest.Entry(id: 42, event: "error", pipeline: "users", data: PipelineEventFeed.json(event))
        guard case .shared(let kind, let pipeline, let json) = try XCTUnwrap(PipelineEventFeed.item(from: entry)) else { return XCTFail("not shared") }
        XCTAssertEqual(kind, .error)
        XCTAssertEqual(pipeline, "users")
        let decoded = try JSONDecoder().decode(PipelineEvent.self, from: Data(json.utf8))
        XCTAssertEqual(decoded.id, 42)
        XCTAssertEqual(decoded.detail, #"upstream said {"id":0, "x":1}"#)
    }

    func testTickEntryIsAClockTick() throws {
        let item = PipelineEventFeed.item(from: SharedFeedIngest.Entry(id: 7, event: "tick", data: "tick 3"))
        guard case .clockTick(3)? = item else { return XCTFail("\(String(describing: item))") }
    }

    func testEntryOfAnUnknownKindIsSkipped() {
        XCTAssertNil(PipelineEventFeed.item(from: SharedFeedIngest.Entry(id: 7, event: "nonsense", data: "{}")))
    }
}
