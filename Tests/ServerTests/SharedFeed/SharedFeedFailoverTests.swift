// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTestSupport
import RedisTestSupport
import XCTest
@testable import Server

/// The loss asynchronous replication allows, forced: replication stopped (replicas re-pointed at a
/// `TCPRelay` that moves no bytes), events acknowledged by the primary alone and delivered to live clients, then
/// the primary killed (SIGKILL) and a replica promoted. Live subscribers get every later event or
/// a `reset`, and no id ever names two different events, on any replica, however it resumes.
final class SharedFeedFailoverTests: XCTestCase {
    /// A new replica's first full sync waits for Redis' once-a-second replication cron and an RDB
    /// transfer: about 1–2 s here, past 5 s once in a CI run on a busy machine. A bound, not a sleep.
    static let replicationWait: TimeInterval = 20

    /// Two replicas on three sentinels; three events replicated everywhere (ids 1...3), then five
    /// (ids 4...8) that only the primary got, delivered live to `clients` (one per replica), then the failover.
    private struct LostHistory {
        let topology: RedisSentinelTopology
        let set: ReplicaSet
        let clients: [SSETestClient]
        /// Every event the clients saw before the failover, by id.
        let seen: [FeedEvent]
    }

    private func loseFiveAcknowledgedEvents() throws -> LostHistory {
        let topology = try RedisSentinelTopology()
        // No heartbeat within a client's read timeout: a missing event fails the test rather than hanging it.
        // No heartbeat within a client's read timeout: a missing event fails the test rather than hanging it.
        let set = try ReplicaSet(self, count: 2, sentinels: topology) { $0.sseHeartbeat = .seconds(60) }
        let clients = try (0..<2).map { try subscribe(set, to: $0) }
        for step in 0..<3 { set.produce(on: 0, stage: "kept-\(step)") }
        var seen = try clients[0].events(3)
        XCTAssertEqual(try clients[1].events(3), seen)
        for node in topology.nodes.dropFirst() {
            waitUntil("ids 1...3 replicated to :\(node.port)", timeout: Self.replicationWait) { (try? node.cli(["GET", SharedFeedKeys().sequence])) == "3\n" }
        }
        try topology.stopReplication()
        for step in 0..<5 { set.produce(on: 0, stage: "lost-\(step)") }
        let lost = try clients[0].events(5)
        XCTAssertEqual(try clients[1].events(5), lost)
        XCTAssertEqual(lost.last?.id, "8", "acknowledged by the primary and delivered live")
        seen += lost
        try topology.killPrimary()
        return LostHistory(topology: topology, set: set, clients: clients, seen: seen)
    }

    /// An `/events` client that waits up to 12 s for each message (a failover takes a few seconds).
    private func subscribe(_ set: ReplicaSet, to index: Int, lastEventID: String? = nil) throws -> SSETestClient {
        let client = try SSETestClient(
            port: set[index].port, target: "/events?pipeline=avatar", headers: lastEventID.map { ["Last-Event-ID": $0] } ?? [:], timeout: 12)
        XCTAssertEqual(client.status, 200)
        if lastEventID == nil { _ = try client.next() }
        return client
    }

    /// Events until one of `stage` (at most 20).
    private func events(_ client: SSETestClient, until stage: String) throws -> [FeedEvent] {
        var events: [FeedEvent] = []
        while events.last?.json["stage"] as? String != stage, events.count < 20 { events += try client.events(1) }
        return events
    }

    /// Fails when an id names two different events across `events`.
    private func assertNoIdNamesTwoEvents(_ events: [FeedEvent], file: StaticString = #filePath, line: UInt = #line) {
        var byID: [String: String] = [:]
        for event in events where event.event != "reset" {
            guard let id = event.id, let stage = event.json["stage"] as? String else { continue }
            if let earlier = byID[id], earlier != stage {
                XCTFail("id \(id) named \(earlier) and then \(stage)", file: file, line: line)
            }
            byID[id] = stage
        }
    }

    func testLiveSubscribersGetOneResetThenTheEventsProducedAfterTheFailoverUnderNewIds() throws {
        let history = try loseFiveAcknowledgedEvents()
        history.set.produce(on: 0, stage: "after")
        for client in history.clients {
            let later = try events(client, until: "after")
            XCTAssertEqual(later.map(\.event), ["reset", "data"], "\(later)")
            guard later.count == 2 else { return }
            let reset = try XCTUnwrap(Int(later[0].id ?? ""))
            XCTAssertGreaterThan(reset, 8, "the reset names an id past every id handed out")
            XCTAssertEqual(later[1].id, String(reset + 1), "the next event follows the reset's id")
            assertNoIdNamesTwoEvents(history.seen + later)
        }
        let metrics = SharedFeedSentinelTests.metrics(port: history.set[1].port)
        XCTAssertTrue(metrics.contains("events_history_resets_total 1"), metrics)
    }

    func testReplicaStartedAfterTheFailoverNeverShowsAnotherEventUnderAnIdAClientHolds() throws {
        let history = try loseFiveAcknowledgedEvents()
        history.set.produce(on: 0, stage: "after")
        _ = try events(history.clients[0], until: "after")
        try history.set.add(id: "late")
        for held in ["2", "5", "8"] {
            let resumed = try subscribe(history.set, to: 2, lastEventID: held)
            let replay = try events(resumed, until: "after")
            // Ids 4...8 are nowhere any more, and the jump past them left nothing older to replay.
            XCTAssertEqual(replay.map(\.event), ["reset", "data"], "after \(held): \(replay)")
            assertNoIdNamesTwoEvents(history.seen + replay)
        }
    }

    func testEventSourceResumingAfterTheFailoverGetsResetOnceThenTheNewEvents() throws {
        let history = try loseFiveAcknowledgedEvents()
        history.set.produce(on: 0, stage: "after")
        let live = try events(history.clients[0], until: "after")
        let resetID = try XCTUnwrap(live.first?.id)
        // Disconnected at 8 (a lost id), back on the other replica: told, once.
        let fromLost = try events(try subscribe(history.set, to: 1, lastEventID: "8"), until: "after")
        XCTAssertEqual(fromLost.map(\.event), ["reset", "data"], "\(fromLost)")
        XCTAssertEqual(fromLost.first?.id, resetID, "every replica restarted at the same id")
        // Got the reset on one replica, resumes with its id on the other: nothing more to tell.
        let fromReset = try events(try subscribe(history.set, to: 1, lastEventID: resetID), until: "after")
        XCTAssertEqual(fromReset.map(\.event), ["data"], "\(fromReset)")
        assertNoIdNamesTwoEvents(history.seen + live + fromLost + fromReset)
    }

    func testTwoFailoversInARowResetOnlyForTheLostHistoryAndIdsOnlyMoveForward() throws {
        let history = try loseFiveAcknowledgedEvents()
        history.set.produce(on: 0, stage: "after-first")
        let first = try events(history.clients[0], until: "after-first")
        XCTAssertEqual(first.map(\.event), ["reset", "data"], "\(first)")
        guard first.count == 2 else { return }
        let promoted = try history.topology.primary()
        for node in history.topology.nodes where node !== promoted && node.isRunning {
            waitUntil("after-first replicated to :\(node.port)", timeout: 10) {
                (try? node.cli(["GET", SharedFeedKeys().sequence])) == (try? promoted.cli(["GET", SharedFeedKeys().sequence]))
            }
        }
        try history.topology.killPrimary()
        history.set.produce(on: 1, stage: "after-second")
        let second = try events(history.clients[0], until: "after-second")
        XCTAssertEqual(second.map(\.event), ["data"], "nothing was lost the second time: no reset, \(second)")
        XCTAssertEqual(Int(second.first?.id ?? ""), Int(first[1].id ?? "").map { $0 + 1 }, "the next id")
        assertNoIdNamesTwoEvents(history.seen + first + second)
    }

    func testReadyIsDegradedWhileNoPrimaryAnswersAndSharedOnceDeliveriesFlowAgain() throws {
        let topology = try RedisSentinelTopology()
        let set = try ReplicaSet(self, count: 1, sentinels: topology)
        let port = set[0].port
        let primary = try topology.primary()
        primary.stop()
        waitUntil("degraded while the primary is gone", timeout: 5) { ReplicaSet.eventsStatus(port: port) == "degraded" }
        for target in ["/health", "/users?limit=1"] {
            let started = ContinuousClock.now
            XCTAssertEqual(try set[0].get(target).status, 200, target)
            XCTAssertLessThan(ContinuousClock.now - started, .seconds(1), "\(target) never waits on Redis")
        }
        _ = try topology.waitForPrimary(other: primary)
        let promoted = ContinuousClock.now
        set.waitUntilShared(set[0], timeout: 5)
        print("figure: /ready shared again \(ContinuousClock.now - promoted) after every sentinel named the promoted replica")
        let client = try subscribe(set, to: 0)
        set.produce(on: 0, stage: "flowing")
        XCTAssertEqual(try client.events(1).first?.json["stage"] as? String, "flowing")
    }

    func testTheSameLossBehindAnUnchangedAddressIsDetectedByTheEntryReadLast() throws {
        let primary = try RedisServerProcess()
        let replication = try TCPRelay(to: primary.port)
        let replica = try RedisServerProcess(arguments: ["--replicaof", "127.0.0.1", String(replication.port)])
        addTeardownBlock { replica.stop() }
        // A front that stays where it is (a virtual IP, a proxy) while the node behind it changes.
        let front = try TCPRelay(to: primary.port)
        let set = try ReplicaSet(self, count: 0, redis: primary)
        try set.add(id: "a", url: "redis://127.0.0.1:\(front.port)")
        let client = try subscribe(set, to: 0)
        for step in 0..<3 { set.produce(on: 0, stage: "kept-\(step)") }
        var seen = try client.events(3)
        waitUntil("ids 1...3 replicated", timeout: Self.replicationWait) { (try? replica.cli(["GET", SharedFeedKeys().sequence])) == "3\n" }
        replication.pause()
        for step in 0..<2 { set.produce(on: 0, stage: "lost-\(step)") }
        seen += try client.events(2)
        primary.stop()
        replication.cutAll()
        try replica.cli(["REPLICAOF", "NO", "ONE"])
        // Before "a" is back, a replica that never saw ids 4 and 5 hands them out again (its floor is 3).
        try set.add(id: "b", url: replica.url)
        for step in 0..<4 { set.produce(on: 1, stage: "other-\(step)") }
        waitUntil("ids 4...7 reused on the promoted node", timeout: 5) { (try? replica.cli(["GET", SharedFeedKeys().sequence])) == "7\n" }
        front.retarget(to: replica.port)
        set.waitUntilShared(set[0], timeout: 10)
        set.produce(on: 0, stage: "after")
        let later = try events(client, until: "after")
        XCTAssertEqual(later.first?.event, "reset", "\(later)")
        XCTAssertGreaterThan(Int(later.last?.id ?? "") ?? 0, 7)
        assertNoIdNamesTwoEvents(seen + later)
    }
}
