// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import DemoUpstream
import Domain
import Foundation
import XCTest
@testable import Server

/// Two replicas on one upstream and one Redis: an answer one fetched is revalidated,
/// not fetched again, by the other, whose own in-process tier is still empty.
final class SharedCacheAcrossReplicasTests: XCTestCase {
    func testAReplicaReusesAnAnswerAnotherReplicaCached() throws {
        let upstream = DemoUpstreamServer(configuration: .init(users: 30))
        try upstream.start()
        defer { upstream.stop() }
        let baseURL = try XCTUnwrap(upstream.baseURL)
        let set = try ReplicaSet(self, count: 2) { $0.upstream = baseURL }
        XCTAssertEqual(try set[0].get("/users?limit=2").status, 200)
        let redis = set.redis
        waitUntil("the answers reached Redis") { ((try? redis.cli(["KEYS", "stream-service:cache:*"])) ?? "").contains("cache:") }
        XCTAssertEqual(try set[1].get("/users?limit=2").status, 200)
        let metrics = try set[1].get("/metrics").bodyText
        let hits = metrics.split(separator: "\n").first { $0.hasPrefix("upstream_cache_hits_total ") }
        XCTAssertNotNil(hits, metrics)
        XCTAssertGreaterThan(hits.flatMap { Double($0.split(separator: " ")[1]) } ?? 0, 0, "served from the shared tier after a 304")
    }
}
