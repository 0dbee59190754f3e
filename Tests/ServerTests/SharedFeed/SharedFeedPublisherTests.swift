// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Redis
import RedisTestSupport
import XCTest
@testable import Server

/// The bounded publish queue in front of a real Redis.
final class SharedFeedPublisherTests: XCTestCase {
    func testWhileRedisIsDownEventsQueueUpToTheCapacityAndTheRestAreCountedAsDropped() throws {
        let redis = try RedisServerProcess()
        defer { redis.stop() }
        let url = redis.url
        redis.stop()
        let connection = try RedisConnection(configuration: RedisConfiguration(url: try RedisURL(parsing: url)))
        defer { connection.close() }
        let publisher = SharedFeedPublisher(connection: connection, keys: SharedFeedKeys(), history: 100, capacity: 3)
        connection.start()
        let started = ContinuousClock.now
        for index in 0..<5 { publisher.enqueue(.init(event: "data", data: "{\"n\":\(index)}")) }
        XCTAssertLessThan(ContinuousClock.now - started, .milliseconds(50), "enqueue never waits for Redis")
        XCTAssertEqual(publisher.depth, 3)
        XCTAssertEqual(publisher.dropped, 2)

        try redis.restart()
        waitUntil("connected", timeout: 5) { connection.state == .connected }
        publisher.flush()
        waitUntil("sent", timeout: 5) { publisher.depth == 0 }
        XCTAssertEqual(publisher.published, 3)
        XCTAssertEqual(try redis.cli(["XLEN", SharedFeedKeys().stream]), "3\n")
        XCTAssertEqual(try redis.cli(["GET", SharedFeedKeys().sequence]), "3\n", "ids 1, 2, 3: the dropped events left no hole")
    }

    func testAnOutageBurstLongerThanTheHistoryIsAllStillInTheStreamForTheReaders() throws {
        // Readers that have not read the burst yet must find all of it: a trimmed head is a `reset`.
        let redis = try RedisServerProcess()
        defer { redis.stop() }
        let url = redis.url
        redis.stop()
        let connection = try RedisConnection(configuration: RedisConfiguration(url: try RedisURL(parsing: url)))
        defer { connection.close() }
        let publisher = SharedFeedPublisher(connection: connection, keys: SharedFeedKeys(), history: 10, capacity: 1000)
        connection.start()
        for index in 1...600 { publisher.enqueue(.init(event: "data", data: "\(index)")) }
        XCTAssertEqual(publisher.depth, 600, "queued while Redis is down")

        try redis.restart()
        waitUntil("connected", timeout: 5) { connection.state == .connected }
        publisher.flush()
        waitUntil("sent", timeout: 10) { publisher.published == 600 }
        XCTAssertEqual(try redis.cli(["XLEN", SharedFeedKeys().stream]), "600\n", "the history is 10, the burst 600: none trimmed")
        let oldest = try redis.cli(["XRANGE", SharedFeedKeys().stream, "-", "+", "COUNT", "1"]).split(separator: "\n")
        XCTAssertEqual(oldest.first, "1-0", "the burst's first event is still there")
    }

    func testTwentyThousandEventsEnqueuedAtOnceAreAllAppendedInOrderWithoutDrops() throws {
        let redis = try RedisServerProcess()
        defer { redis.stop() }
        let (connection, publisher) = try connectedPublisher(to: redis, capacity: 20_000)
        defer { connection.close() }
        for index in 1...20_000 { publisher.enqueue(.init(event: "data", data: "\(index)")) }
        waitUntil("sent", timeout: 20) { publisher.published == 20_000 }
        XCTAssertEqual(publisher.dropped, 0)
        XCTAssertEqual(try redis.cli(["XLEN", SharedFeedKeys().stream]), "20000\n")
        let last = try redis.cli(["XREVRANGE", SharedFeedKeys().stream, "+", "-", "COUNT", "1"]).split(separator: "\n")
        XCTAssertEqual(last.first, "20000-0")
        XCTAssertEqual(last.last, "20000", "the queue's order is the stream's order")
    }

    func testAfterRedisForgetsTheScriptPublishingContinuesWithNothingLostOrRepeated() throws {
        let redis = try RedisServerProcess()
        defer { redis.stop() }
        let (connection, publisher) = try connectedPublisher(to: redis, capacity: 100)
        defer { connection.close() }
        publisher.enqueue(.init(event: "data", data: "1"))
        waitUntil("first sent", timeout: 5) { publisher.published == 1 }
        try redis.cli(["SCRIPT", "FLUSH"])
        for index in 2...4 { publisher.enqueue(.init(event: "data", data: "\(index)")) }
        waitUntil("the rest sent", timeout: 5) { publisher.published == 4 }
        let data = try redis.cli(["XRANGE", SharedFeedKeys().stream, "-", "+"]).split(separator: "\n").filter { !$0.isEmpty && !$0.contains("-0") && $0.allSatisfy(\.isNumber) }
        XCTAssertEqual(data, ["1", "2", "3", "4"])
        XCTAssertEqual(publisher.dropped, 0)
    }

    func testEventsSkippedAsRepeatsAfterANOSCRIPTAreCountedAsDroppedNotLostSilently() {
        // Batch 1...3 was answered NOSCRIPT (never appended); a later batch got through meanwhile, so
        // the resent 1...3 is skipped by the script (-1 each) except 3, which Redis appended (id 9).
        var state = SharedFeedPublisher.State()
        state.unapplied = [1...3]
        state.countSkipped(1...3, replies: [.integer(-1), .integer(-1), .integer(9)])
        XCTAssertEqual(state.dropped, 2)
        XCTAssertTrue(state.unapplied.isEmpty, "forgotten once resent")
    }

    func testARepeatOutsideTheUnappliedRangesIsNoDrop() {
        // A resend after a lost reply: Redis had appended 4...5, so skipping them loses nothing.
        var state = SharedFeedPublisher.State()
        state.unapplied = [7...8]
        state.countSkipped(4...5, replies: [.integer(-1), .integer(-1)])
        XCTAssertEqual(state.dropped, 0)
        XCTAssertEqual(state.unapplied, [7...8])
    }

    private func connectedPublisher(to redis: RedisServerProcess, history: Int = 100_000, capacity: Int) throws -> (RedisConnection, SharedFeedPublisher) {
        let relay = Locked<SharedFeedPublisher?>(nil)
        let connection = try RedisConnection(configuration: RedisConfiguration(url: try RedisURL(parsing: redis.url))) { state in
            if state == .connected { relay.withLock { $0 }?.connected() }
        }
        let publisher = SharedFeedPublisher(connection: connection, keys: SharedFeedKeys(), history: history, capacity: capacity)
        relay.withLock { $0 = publisher }
        connection.start()
        waitUntil("connected", timeout: 5) { connection.state == .connected }
        return (connection, publisher)
    }
}
