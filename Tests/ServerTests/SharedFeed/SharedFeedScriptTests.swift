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

    private func run(_ entry: SharedFeedPublisher.Entry, process: String = "p1", number: Int) throws -> String {
        let command = SharedFeedScript.command(keys: keys, retention: 100, entry: entry, process: process, number: number)
        return try redis.cli(command).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testIdsAreConsecutiveAndTheStreamEntryIdIsTheSSEId() throws {
        XCTAssertEqual(try run(.init(event: "data", data: "{}"), number: 1), "1")
        XCTAssertEqual(try run(.init(event: "end", data: "{}"), process: "p2", number: 1), "2")
        XCTAssertEqual(try redis.cli(["XRANGE", keys.stream, "-", "+"]).split(separator: "\n").filter { $0.hasSuffix("-0") }, ["1-0", "2-0"])
    }

    func testAResentNumberIsNotAppendedTwice() throws {
        XCTAssertEqual(try run(.init(event: "data", data: "{}"), number: 1), "1")
        XCTAssertEqual(try run(.init(event: "data", data: "{}"), number: 1), "-1")
        XCTAssertEqual(try redis.cli(["XLEN", keys.stream]), "1\n")
    }

    func testTickIsAppendedOnlyByTheLeaseHolder() throws {
        let tick = { (owner: String) in SharedFeedPublisher.Entry(event: "tick", data: "tick 0", leaseOwner: owner, leaseMilliseconds: 60_000) }
        XCTAssertEqual(try run(tick("a"), process: "a", number: 1), "1")
        XCTAssertEqual(try run(tick("b"), process: "b", number: 1), "0", "b does not hold the lease")
        XCTAssertEqual(try run(tick("a"), process: "a", number: 2), "2")
    }
}
