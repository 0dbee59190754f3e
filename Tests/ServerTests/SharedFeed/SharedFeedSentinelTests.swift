// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTestSupport
import RedisTestSupport
import XCTest
@testable import Server

/// Replicas on `--redis-sentinels` (a primary, two replicas, three sentinels): every Redis
/// connection of the service — the feed's publish and read, the shared cache, the shared
/// budgets — follows the primary through a failover.
final class SharedFeedSentinelTests: XCTestCase {
    func testFeedCacheAndBudgetsFollowAForcedFailoverAndTheFeedContinuesWithoutGap() throws {
        let topology = try RedisSentinelTopology()
        let set = try ReplicaSet(self, count: 2, sentinels: topology) {
            $0.clientUpstreamRate = RatePolicy(name: "upstream", count: 100, period: .seconds(3600))
        }
        let client = try set.subscribe(to: 1)
        set.produce(on: 0, stage: "before")
        let before = try XCTUnwrap(client.events(1).first?.id.flatMap(Int.init))
        let promoted = try topology.failover()
        let switched = ContinuousClock.now
        for port in set.replicas.map(\.port) {
            waitUntil("the replica on :\(port) followed", timeout: 5) {
                let metrics = Self.metrics(port: port)
                return metrics.contains(#"redis_failovers_followed_total{role="publish"} 1"#) && metrics.contains(#"redis_failovers_followed_total{role="read"} 1"#)
            }
        }
        set.produce(on: 0, stage: "after")
        let next = try XCTUnwrap(client.events(1).first)
        print("figure: first event after the switch delivered \(ContinuousClock.now - switched) after every sentinel named the new primary")
        XCTAssertEqual(next.id.flatMap(Int.init), before + 1, "the next id, no gap")
        XCTAssertEqual(next.json["stage"] as? String, "after")
        for replica in set.replicas { set.waitUntilShared(replica) }

        XCTAssertEqual(try set[0].get("/users/ada1").status, 200)
        waitUntil("the answer cached and the charge counted on the new primary", timeout: 5) {
            let cached = (try? promoted.cli(["--scan", "--pattern", "stream-service:cache:*"])) ?? ""
            let charged = (try? promoted.cli(["GET", BudgetScript.keyPrefix + "addr:127.0.0.1"])) ?? ""
            return !cached.isEmpty && !charged.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        }
        XCTAssertEqual(SharedBudgetTests.budgets(port: set[0].port), "shared")
    }

    /// `/metrics`' text on the replica at `port`, empty when the request fails.
    static func metrics(port: Int) -> String {
        guard let client = try? RawHTTPClient(port: port),
              (try? client.send("GET /metrics HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")) != nil else { return "" }
        return (try? client.readResponse())?.bodyText ?? ""
    }
}
