// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTestSupport
import RedisTestSupport
import XCTest
@testable import Server

/// The shared feed when Redis misbehaves: requests never wait on it, and the
/// feed never skips ids silently.
final class SharedFeedFailureTests: XCTestCase {
    func testPausedRedisLeavesJSONEndpointsFastAndReadyDegradedThenTheFeedContinuesWithoutGap() throws {
        let set = try ReplicaSet(self, count: 2)
        let client = try set.subscribe(to: 1)
        set.produce(on: 0, stage: "before")
        let before = try XCTUnwrap(client.events(1).first?.id.flatMap(Int.init))
        set.redis.pause()
        defer { set.redis.resume() }
        set.produce(on: 0, stage: "during")
        for target in ["/health", "/users?limit=1", "/metrics"] {
            let started = ContinuousClock.now
            XCTAssertEqual(try set[0].get(target).status, 200, target)
            XCTAssertLessThan(ContinuousClock.now - started, .seconds(1), "\(target) does not wait on Redis")
        }
        let ports = (set[0].port, set[1].port)
        waitUntil("both replicas notice", timeout: 8) {
            ReplicaSet.eventsStatus(port: ports.0) == "degraded" && ReplicaSet.eventsStatus(port: ports.1) == "degraded"
        }
        XCTAssertEqual(try set[0].get("/ready").status, 200)
        let metrics = try set[0].get("/metrics").bodyText
        XCTAssertTrue(metrics.contains("redis_connection_state{role=\"publish\",state=\"connected\"} 0"), metrics)
        XCTAssertTrue(metrics.contains("events_publish_queue_depth "), metrics)
        set.redis.resume()
        let resumed = ContinuousClock.now
        let next = try XCTUnwrap(client.events(1).first)
        XCTAssertLessThan(ContinuousClock.now - resumed, .seconds(3))
        XCTAssertEqual(next.id.flatMap(Int.init), before + 1, "the next id, no gap")
        XCTAssertEqual(next.json["stage"] as? String, "during", "the event produced meanwhile was queued, not lost")
        set.waitUntilShared(set[0])
    }

    func testRedisRestartedEmptyTellsLiveClientsResetAndIdsContinueAboveEveryIdHandedOut() throws {
        let set = try ReplicaSet(self, count: 1)
        let client = try set.subscribe(to: 0)
        for step in 0..<3 { set.produce(on: 0, stage: "old-\(step)") }
        XCTAssertEqual(try client.events(3).last?.id, "3")
        try set.redis.restart()
        let reset = try XCTUnwrap(client.events(1).first)
        XCTAssertEqual(reset.event, "reset")
        let base = try XCTUnwrap(reset.id.flatMap(Int.init))
        XCTAssertGreaterThan(base, 3, "ids 1...3 are never handed out again: a client holding one is never shown another event under it")
        set.waitUntilShared(set[0])
        set.produce(on: 0, stage: "new")
        // Events whose replies the kill cut off are sent again to the new Redis (at least once): they may come first.
        var after: [FeedEvent] = []
        while after.last?.json["stage"] as? String != "new", after.count < 4 { after += try client.events(1) }
        XCTAssertEqual(after.map(\.id), (1...after.count).map { String(base + $0) }, "the new history numbers on from the reset's id")
        XCTAssertEqual(after.last?.json["stage"] as? String, "new")
        XCTAssertTrue(after.dropLast().allSatisfy { ($0.json["stage"] as? String)?.hasPrefix("old-") ?? false }, "\(after)")
    }

    func testResumeFromBeforeATrimmedStreamGetsResetWithAnId() throws {
        let set = try ReplicaSet(self, count: 1)
        let client = try set.subscribe(to: 0)
        for step in 0..<5 { set.produce(on: 0, stage: "step-\(step)") }
        XCTAssertEqual(try client.events(5).last?.id, "5")
        try set.redis.cli(["XTRIM", "stream-service:events:stream", "MAXLEN", "0"])
        // A replica starting now finds only the counter: its history begins after 5.
        try set.add(id: "late")
        let resumed = try set.subscribe(to: 1, lastEventID: "2")
        let reset = try XCTUnwrap(resumed.events(1).first)
        XCTAssertEqual(reset.event, "reset")
        XCTAssertEqual(reset.id, "5")
        XCTAssertEqual(reset.json["oldestAvailableId"] as? Int, 6)
    }

    func testWrongPasswordLogsRedisReasonAndReadyStaysUpDegraded() throws {
        let redis = try RedisServerProcess(password: "right")
        let set = try ReplicaSet(self, count: 0, redis: redis)
        let replica = try set.add(id: "locked-out", url: "redis://:wrong@127.0.0.1:\(redis.port)", waitForShared: false)
        let output = replica.output
        waitUntil("the refusal is logged") { output.lines().contains { $0.contains("Redis refused AUTH: WRONGPASS") } }
        let ready = try replica.get("/ready")
        XCTAssertEqual(ready.status, 200)
        XCTAssertEqual(ready.bodyJSON?["events"] as? String, "degraded")
        XCTAssertEqual(try replica.get("/users?limit=1").status, 200)
    }

    func testBadRedisURLExitsWith64InOneLineNamingTheFlag() throws {
        let service = try ServiceProcess(["serve", "--redis-url", "http://cache:6379"])
        XCTAssertEqual(service.exitStatus(), 64)
        XCTAssertEqual(service.errorOutput.split(separator: "\n").count, 1, service.errorOutput)
        XCTAssertTrue(service.errorOutput.hasPrefix("error: --redis-url: invalid Redis URL: scheme must be redis:// or rediss://"), service.errorOutput)
    }

    func testBadRedisURLFromTheEnvironmentNamesTheVariableWithoutEchoingIt() throws {
        XCTAssertThrowsError(try ServiceConfiguration.resolve(flags: [:], environment: ["REDIS_URL": "redis://:secret@host:notaport"])) { error in
            let text = String(describing: error)
            XCTAssertTrue(text.hasPrefix("error: --redis-url (from REDIS_URL): invalid Redis URL: port 'notaport'"), text)
            XCTAssertFalse(text.contains("secret"), text)
        }
    }
}
