// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTestSupport
import RedisTestSupport
import XCTest
@testable import Server

/// One `event: reset` per change of the shared history a live subscriber crosses, however its
/// replica learns of the change.
final class SharedFeedResetTests: XCTestCase {
    private let keys = SharedFeedKeys()

    /// Events on `client` until one of `stage` (at most 10).
    private func events(_ client: SSETestClient, until stage: String) throws -> [FeedEvent] {
        var events: [FeedEvent] = []
        while events.last?.json["stage"] as? String != stage, events.count < 10 { events += try client.events(1) }
        return events
    }

    private func epoch(_ set: ReplicaSet) throws -> String {
        try set.redis.cli(["GET", keys.epoch]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testAHistoryAnotherReplicaNamesWhileThisOneWaitsForEntriesIsOneReset() throws {
        // No heartbeat within a client's read timeout: a missing event fails the test rather than hanging it.
        let set = try ReplicaSet(self, count: 1) { $0.sseHeartbeat = .seconds(60) }
        let client = try set.subscribe(to: 0)
        set.produce(on: 0, stage: "before")
        XCTAssertEqual(try client.events(1).map(\.id), ["1"])
        // Another replica read ids up to 5, which this Redis lost (a failover before replication): its
        // look names a new history past them, while this replica's reader, which read the epoch
        // before, waits in XREAD for entries. The first entry of the new history comes after a jump.
        let before = try epoch(set)
        _ = try set.redis.cli(SharedFeedScript.observeCommand(keys: keys, floor: 5, known: before))
        XCTAssertNotEqual(try epoch(set), before)
        set.produce(on: 0, stage: "first")
        let first = try events(client, until: "first")
        XCTAssertEqual(first.map(\.event), ["reset", "data"], "\(first)")
        let reset = try XCTUnwrap(Int(first.first?.id ?? ""))
        XCTAssertEqual(first.last?.id, String(reset + 1), "the new history from the reset's id on")
        // The replica's next look at the epoch finds the new history: nothing more to tell.
        set.produce(on: 0, stage: "second")
        let second = try events(client, until: "second")
        XCTAssertEqual(second.map(\.event), ["data"], "one reset for one change: \(second)")
        XCTAssertEqual(second.last?.id, String(reset + 2))
    }

    func testEntriesTrimmedBeforeTheReplicaReadThemAreStillOneResetAtTheJump() throws {
        let set = try ReplicaSet(self, count: 1) { $0.sseHeartbeat = .seconds(60) }
        let client = try set.subscribe(to: 0)
        set.produce(on: 0, stage: "before")
        XCTAssertEqual(try client.events(1).map(\.id), ["1"])
        // Entries 2...4 appended and trimmed away under the same history before this replica read
        // them, as a burst longer than the stream's retention is (one script: the reader sees neither).
        let burst = "for i = 2, 4 do redis.call('XADD', KEYS[1], i .. '-0', 'e', 'data', 'p', 'avatar', 'd', '{}') end "
            + "redis.call('SET', KEYS[2], 4) return redis.call('XTRIM', KEYS[1], 'MAXLEN', 0)"
        XCTAssertEqual(try set.redis.cli(["EVAL", burst, "2", keys.stream, keys.sequence]), "4\n")
        set.produce(on: 0, stage: "after")
        let later = try events(client, until: "after")
        XCTAssertEqual(later.map(\.event), ["reset", "data"], "\(later)")
        XCTAssertEqual(later.map(\.id), ["4", "5"], "told at the jump, then the next entry")
    }
}
