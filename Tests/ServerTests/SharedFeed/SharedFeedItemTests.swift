// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Domain
import Foundation
import XCTest
@testable import Server

/// How a shared-stream entry becomes an `/events` item.
final class SharedFeedItemTests: XCTestCase {
    func testAnEventIsPublishedWithoutAnIdAndWrittenWithTheEntryIdEvenWhenTheDetailQuotesOne() throws {
        let event = PipelineEvent(kind: .error, pipeline: "users", requestId: "r", stage: "s", detail: #"upstream said {"id":0, "x":1}"#)
        let published = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(event.json.utf8)) as? [String: Any])
        XCTAssertNil(published["id"], "not numbered yet: no id in the published JSON")
        let entry = SharedFeedIngest.Entry(id: 42, event: "error", pipeline: "users", data: event.json)
        let item = try XCTUnwrap(PipelineEventFeed.item(from: entry))
        XCTAssertEqual(item.kind, .error)
        XCTAssertEqual(item.pipeline, "users")
        let json = try XCTUnwrap(item.message(id: entry.id).data)
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
