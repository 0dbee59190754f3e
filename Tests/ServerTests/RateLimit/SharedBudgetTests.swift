// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTestSupport
import RedisTestSupport
import StreamServiceConcurrency
import XCTest
@testable import Server

/// `--client-upstream-rate` with `--redis-url`: one budget per client across replicas, on a real
/// redis-server, and each replica on its own (without waiting) while Redis is frozen.
final class SharedBudgetTests: XCTestCase {
    /// Three units an hour; no response cache, so no Redis cache tier is asked either. A check
    /// waits up to 5 s for Redis: at the production 100 ms a busy machine's slow answer made a
    /// replica decide alone (by design), and a test of the sharing then saw its own budget.
    private func replicas(
        _ count: Int, redisTimeout: Duration = .seconds(5), configure: @escaping (inout ServiceConfiguration) -> Void = { _ in }
    ) throws -> ReplicaSet {
        let set = try ReplicaSet(self, count: count) {
            $0.clientUpstreamRate = RatePolicy(name: "upstream", count: 3, period: .seconds(3600))
            $0.upstreamCacheBytes = 0
            $0.budgetRedisTimeout = redisTimeout
            configure(&$0)
        }
        for replica in set.replicas {
            let port = replica.port
            waitUntil("the replica on :\(port) checks budgets in Redis", timeout: 5) { Self.budgets(port: port) == "shared" }
        }
        return set
    }

    /// `/ready`'s `budgets` field on the replica at `port`.
    static func budgets(port: Int) -> String? {
        guard let client = try? RawHTTPClient(port: port),
              (try? client.send("GET /ready HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")) != nil else { return nil }
        return (try? client.readResponse())?.bodyJSON?["budgets"] as? String
    }

    func testOneClientsBudgetIsSharedByThreeReplicas() throws {
        let set = try replicas(3)
        // A profile costs two requests (the user and a page of repositories).
        XCTAssertEqual(try set[0].get("/users/ada1").status, 200)
        let redis = set.redis
        waitUntil("the charge reached Redis", timeout: 5) {
            (try? redis.cli(["GET", BudgetScript.keyPrefix + "addr:127.0.0.1"]))?.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty == false
        }
        let refused = try set[1].get("/users/grace2")
        XCTAssertEqual(refused.status, 429, "2 of 3 spent on another replica: a profile's 2 do not fit")
        XCTAssertEqual(refused.header("RateLimit-Policy"), #""upstream";q=3;w=3600"#)
        XCTAssertEqual(try set[2].get("/users/alan3").status, 429, "nor on the third")
    }

    func testWhileRedisIsPausedEachReplicaKeepsItsOwnBudgetAndNeverWaitsLong() throws {
        let set = try replicas(2, redisTimeout: UpstreamBudget.defaultRedisTimeout)
        set.redis.pause()
        defer { set.redis.resume() }
        for (login, status) in [("ada1", 200), ("grace2", 429)] {
            let started = Date()
            XCTAssertEqual(try set[0].get("/users/\(login)").status, status, login)
            XCTAssertLessThan(Date().timeIntervalSince(started), 1.5, "\(login): a frozen Redis costs a check at most its 100 ms timeout")
        }
        XCTAssertEqual(try set[1].get("/users/alan3").status, 200, "the other replica decides on its own budget")
        XCTAssertEqual(Self.budgets(port: set[0].port), "local")
    }

    /// Reservations in Redis are atomic: concurrent requests of one client on two replicas
    /// together start no more than the shared budget holds (`/users?limit=1`: 2 units of 3).
    func testConcurrentRequestsOnTwoReplicasReserveFromOneBudget() throws {
        let set = try replicas(2) { $0.demoLatency = .milliseconds(300) }
        let ports = set.replicas.map(\.port)
        let statuses = Locked<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 20) { index in
            let client = try? RawHTTPClient(port: ports[index % 2])
            try? client?.send("GET /users?limit=1&since=\(index * 10) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            let status = (try? client?.readResponse())??.status ?? -1
            statuses.withLock { $0.append(status) }
        }
        let seen = statuses.withLock { $0 }
        XCTAssertEqual(seen.filter { $0 == 200 }.count, 1, "\(seen)")
        XCTAssertEqual(seen.filter { $0 == 429 }.count, 19, "\(seen)")
        XCTAssertLessThanOrEqual(set.replicas.map(UpstreamBudgetTests.charged).reduce(0, +), 3, "upstream requests on both replicas together")
    }
}
