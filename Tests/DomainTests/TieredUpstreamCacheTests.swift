// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Domain
import Streams
import XCTest

final class TieredUpstreamCacheTests: XCTestCase {
    private let key = UpstreamCacheKey(url: "https://example.test/users", credential: "")
    private let entry = UpstreamCacheEntry(UpstreamResponse(status: 200, headers: ["etag": "\"a\""], body: Array("[]".utf8)))!

    private func lookUp(_ store: any UpstreamCacheStore) async throws -> UpstreamCacheEntry? {
        try await store.entry(for: key).first() ?? nil
    }

    func testABackHitIsCopiedToTheFront() async throws {
        let front = InMemoryUpstreamCache(), back = InMemoryUpstreamCache()
        back.store(entry, for: key)
        let tiered = TieredUpstreamCache(front: front, back: back)
        let found = try await lookUp(tiered)
        XCTAssertEqual(found, entry)
        let copied = try await lookUp(front)
        XCTAssertEqual(copied, entry)
    }

    func testAStoreGoesToBothTiers() async throws {
        let front = InMemoryUpstreamCache(), back = InMemoryUpstreamCache()
        TieredUpstreamCache(front: front, back: back).store(entry, for: key)
        let inFront = try await lookUp(front)
        let inBack = try await lookUp(back)
        XCTAssertEqual(inFront, entry)
        XCTAssertEqual(inBack, entry)
    }

    func testAMissInBothIsAMiss() async throws {
        let found = try await lookUp(TieredUpstreamCache(front: InMemoryUpstreamCache(), back: InMemoryUpstreamCache()))
        XCTAssertNil(found)
    }
}
