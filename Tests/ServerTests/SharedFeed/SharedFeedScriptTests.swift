// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import RedisTestSupport
import XCTest
@testable import Server

/// The publish script run by a real Redis.
final class SharedFeedScriptTests: XCTestCase {
    private var redis: RedisServerProcess!
    private let keys = SharedFeedKeys()

    override func setUpWithError() throws {
        redis = try RedisServerProcess()
    }

    override func tearDown() {
        redis?.stop()
    }

    /// Appends `entries`, numbered from `number`, in one call; the script's answer per entry.
    private func run(_ entries: [SharedFeedPublisher.Entry], process: String = "p1", from number: Int, floor: Int = 0) throws -> [String] {
        let batch = entries.enumerated().map { (number: number + $0.offset, entry: $0.element) }
        let command = SharedFeedScript.command(keys: keys, retention: 100, process: process, floor: floor, batch: batch, loadingScript: true)
        return try redis.cli(command).split(separator: "\n").map(String.init)
    }

    private func streamIDs() throws -> [String] {
        try redis.cli(["XRANGE", keys.stream, "-", "+"]).split(separator: "\n").filter { $0.hasSuffix("-0") }.map(String.init)
    }

    func testIdsAreConsecutiveAndTheStreamEntryIdIsTheSSEId() throws {
        XCTAssertEqual(try run([.init(event: "data", data: "{}")], from: 1), ["1"])
        XCTAssertEqual(try run([.init(event: "end", data: "{}")], process: "p2", from: 1), ["2"])
        XCTAssertEqual(try streamIDs(), ["1-0", "2-0"])
    }

    func testOneCallAppendsAWholeBatchInOrder() throws {
        let batch = (0..<3).map { SharedFeedPublisher.Entry(event: "data", data: "{\"n\":\($0)}", pipeline: "p") }
        XCTAssertEqual(try run(batch, from: 1), ["1", "2", "3"])
        XCTAssertEqual(try streamIDs(), ["1-0", "2-0", "3-0"])
        XCTAssertEqual(try redis.cli(["XRANGE", keys.stream, "3-0", "3-0"]).split(separator: "\n").last, "{\"n\":2}")
    }

    func testAResentNumberIsNotAppendedTwice() throws {
        XCTAssertEqual(try run([.init(event: "data", data: "{}")], from: 1), ["1"])
        XCTAssertEqual(try run([.init(event: "data", data: "{}"), .init(event: "data", data: "{}")], from: 1), ["-1", "2"])
        XCTAssertEqual(try redis.cli(["XLEN", keys.stream]), "2\n")
    }

    func testTickIsAppendedOnlyByTheLeaseHolder() throws {
        let tick = { (owner: String) in SharedFeedPublisher.Entry(event: "tick", data: "tick 0", leaseOwner: owner, leaseMilliseconds: 60_000) }
        XCTAssertEqual(try run([tick("a")], process: "a", from: 1), ["1"])
        XCTAssertEqual(try run([tick("b")], process: "b", from: 1), ["0"], "b does not hold the lease")
        XCTAssertEqual(try run([tick("a")], process: "a", from: 2), ["2"])
    }

    func testPublishingBelowTheCallersFloorMovesIdsPastItAndNamesANewHistory() throws {
        XCTAssertEqual(try run([.init(event: "data", data: "{}")], from: 1), ["1"])
        let before = try redis.cli(["GET", keys.epoch])
        // This replica read up to id 8; this Redis only has 1: it lost 2...8 (a failover before replication).
        let moved = try run([.init(event: "data", data: "{}")], from: 2, floor: 8)
        XCTAssertEqual(moved, [String(8 + SharedFeedHistory.margin + 1)])
        let epoch = try redis.cli(["GET", keys.epoch]).trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertNotEqual(epoch + "\n", before)
        XCTAssertEqual(SharedFeedHistory.base(ofEpoch: epoch), 8 + SharedFeedHistory.margin)
    }

    func testPublishingAtOrAboveTheFloorKeepsTheHistory() throws {
        XCTAssertEqual(try run([.init(event: "data", data: "{}")], from: 1, floor: 0), ["1"])
        let epoch = try redis.cli(["GET", keys.epoch])
        XCTAssertEqual(try run([.init(event: "data", data: "{}")], from: 2, floor: 1), ["2"])
        XCTAssertEqual(try redis.cli(["GET", keys.epoch]), epoch)
    }

    func testObserveNamesTheFirstHistoryOnceAndAForcedChangeOnlyOverTheEpochItSaw() throws {
        let observe = { (force: Bool, known: String?) in
            try self.redis.cli(SharedFeedScript.observeCommand(keys: self.keys, floor: 0, force: force, known: known)).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let first = try observe(false, nil)
        XCTAssertEqual(SharedFeedHistory.base(ofEpoch: first), 0)
        XCTAssertEqual(try observe(false, first), first)
        let changed = try observe(true, first)
        XCTAssertNotEqual(changed, first)
        XCTAssertEqual(SharedFeedHistory.base(ofEpoch: changed), SharedFeedHistory.margin)
        XCTAssertEqual(try observe(true, first), changed, "another replica already named the new history: it is not moved again")
    }
}
