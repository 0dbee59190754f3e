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
        let publisher = SharedFeedPublisher(connection: connection, keys: SharedFeedKeys(), retention: 100, capacity: 3)
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
}
