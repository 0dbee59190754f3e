// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTestSupport
import XCTest
@testable import Server

/// Replicas sharing `/events` through a real Redis: one feed, one numbering, one order.
final class SharedFeedTests: XCTestCase {
    func testEveryReplicaShowsTheSameEventsWithTheSameIdsInTheSameOrder() throws {
        let set = try ReplicaSet(self, count: 3)
        let clients = try (0..<3).map { try set.subscribe(to: $0) }
        for step in 0..<6 { set.produce(on: step % 3, stage: "step-\(step)") }
        let feeds = try clients.map { try $0.events(6) }
        XCTAssertEqual(feeds[1], feeds[0])
        XCTAssertEqual(feeds[2], feeds[0])
        let ids = feeds[0].compactMap { $0.id.flatMap(Int.init) }
        XCTAssertEqual(ids, Array(ids[0]..<ids[0] + 6), "consecutive ids")
        XCTAssertEqual(feeds[0].map { $0.json["id"] as? Int }, ids.map { $0 }, "the JSON id is the SSE id")
        XCTAssertEqual(Set(feeds[0].map { $0.json["stage"] as? String }), Set((0..<6).map { "step-\($0)" }))
    }

    func testEventDataNamesTheReplicaThatProducedIt() throws {
        let set = try ReplicaSet(self, count: 2)
        let client = try set.subscribe(to: 0)
        set.produce(on: 1, stage: "from-one")
        let event = try XCTUnwrap(client.events(1).first)
        XCTAssertEqual(event.json["replica"] as? String, "replica-1")
        XCTAssertEqual(event.json["stage"] as? String, "from-one")
    }

    func testGeneratedRequestIdsDifferAcrossReplicasAndAClientsIdIsKept() throws {
        let set = try ReplicaSet(self, count: 2)
        let first = try set[0].get("/health")
        let second = try set[1].get("/health")
        let ids = [first.header("X-Request-ID"), second.header("X-Request-ID")].compactMap { $0 }
        XCTAssertEqual(ids.count, 2)
        XCTAssertTrue(ids[0].hasPrefix("req-replica-0-"), ids[0])
        XCTAssertTrue(ids[1].hasPrefix("req-replica-1-"), ids[1])
        XCTAssertEqual(try set[1].get("/health", headers: ["X-Request-ID": "client-chosen-7"]).header("X-Request-ID"), "client-chosen-7")
    }

    func testPipelineRunOnOneReplicaAppearsOnAnotherWithItsRequestId() throws {
        let set = try ReplicaSet(self, count: 2)
        let client = try set.subscribe(to: 1, pipeline: "users")
        let response = try set[0].get("/users?limit=1", headers: ["X-Request-ID": "cross-replica-1"])
        XCTAssertEqual(response.status, 200)
        let event = try XCTUnwrap(client.events(1).first)
        XCTAssertEqual(event.json["requestId"] as? String, "cross-replica-1")
        XCTAssertEqual(event.json["replica"] as? String, "replica-0")
    }

    func testResumeOnAnotherReplicaGetsExactlyTheEventsAfterTheLastSeenId() throws {
        let set = try ReplicaSet(self, count: 2)
        let onA = try set.subscribe(to: 0)
        for step in 0..<6 { set.produce(on: step % 2, stage: "step-\(step)") }
        let all = try onA.events(6)
        let lastSeen = try XCTUnwrap(all[2].id)
        // B has ingested all six before the client comes: wait for its buffer to hold the last one.
        let replicaB = set[1].application, last = Int(all[5].id ?? "")
        waitUntil("B has the last event") { replicaB.lastEventID == last }
        let onB = try set.subscribe(to: 1, lastEventID: lastSeen)
        XCTAssertEqual(try onB.events(3), Array(all[3...]), "no gap, no duplicate")
        set.produce(on: 0, stage: "live")
        XCTAssertEqual(try onB.events(1).first?.json["stage"] as? String, "live")
    }

    func testKilledReplicaLeavesTheOthersServing() throws {
        let set = try ReplicaSet(self, count: 1)
        let child = try ServiceProcess(["serve", "--host", "127.0.0.1", "--port", "0", "--log-format", "json", "--redis-url", set.redis.url, "--replica-id", "doomed"])
        let line = try XCTUnwrap(child.firstLine(), child.errorOutput)
        let message = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["message"] as? String)
        let port = try XCTUnwrap(message.split(separator: ":").last.flatMap { Int($0) }, message)
        let client = try set.subscribe(to: 0, pipeline: "users")
        let raw = try RawHTTPClient(port: port)
        try raw.send("GET /users?limit=1 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        let response = try raw.readResponse()
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(try client.events(1).first?.json["replica"] as? String, "doomed")
        child.signal(SIGKILL)
        XCTAssertNotNil(child.exitStatus())
        XCTAssertEqual(try set[0].get("/health").status, 200)
        XCTAssertEqual(try set[0].get("/users?limit=1").status, 200)
        // The rest of the dead replica's run may come first; the survivor's own run follows.
        var producers: [String] = []
        while producers.last != "replica-0", producers.count < 200, let event = try client.nextEvent() {
            producers.append(FeedEvent(event).json["replica"] as? String ?? "")
        }
        XCTAssertEqual(producers.last, "replica-0", "the survivor still publishes and delivers")
    }
}
