// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Domain
import Redis
import RedisTestSupport
import Streams
import XCTest
@testable import Server

/// The upstream cache's Redis tier against a real redis-server.
final class RedisUpstreamCacheTests: XCTestCase {
    private var redis: RedisServerProcess!
    private var connections: [RedisConnection] = []
    private let key = UpstreamCacheKey(url: "https://api.github.com/users/octocat/avatar", credential: "")
    private let entry = UpstreamCacheEntry(UpstreamResponse(status: 200, headers: ["etag": "\"v1\"", "content-type": "image/png"], body: [0, 255, 137, 80]))!

    override func setUpWithError() throws {
        redis = try RedisServerProcess()
    }

    override func tearDown() {
        connections.forEach { $0.close() }
        redis?.stop()
    }

    /// A replica's tier: its own connection, connected.
    private func replicaTier() throws -> RedisUpstreamCache {
        let connection = try RedisConnection(configuration: RedisConfiguration(url: try RedisURL(parsing: redis.url)))
        connections.append(connection)
        connection.start()
        waitUntil("connected", timeout: 5) { connection.state == .connected }
        return RedisUpstreamCache(connection: connection)
    }

    private func lookUp(_ store: RedisUpstreamCache) throws -> UpstreamCacheEntry? {
        let found = Locked<UpstreamCacheEntry??>(nil)
        let subscription = store.entry(for: key).watch(data: { value in found.withLock { $0 = .some(value) } })
        defer { subscription.dispose() }
        waitUntil("answered", timeout: 2) { found.withLock { $0 != nil } }
        return found.withLock { $0 ?? nil }
    }

    func testAnAnswerStoredByOneReplicaIsFoundByAnother() throws {
        let first = try replicaTier(), second = try replicaTier()
        first.store(entry, for: key)
        let redis = self.redis!
        waitUntil("stored") { (try? redis.cli(["KEYS", "stream-service:cache:*"]).split(separator: "\n").count) == 1 }
        XCTAssertEqual(try lookUp(second), entry)
    }

    func testKeysAreNamespacedAndExpire() throws {
        let tier = try replicaTier()
        tier.store(entry, for: key)
        let redis = self.redis!, stored = RedisUpstreamCache.redisKey(key)
        waitUntil("stored") { (try? redis.cli(["EXISTS", stored])) == "1\n" }
        XCTAssertTrue(RedisUpstreamCache.redisKey(key).hasPrefix("stream-service:cache:"))
        let ttl = try XCTUnwrap(Int(redis.cli(["PTTL", RedisUpstreamCache.redisKey(key)]).trimmingCharacters(in: .whitespacesAndNewlines)))
        XCTAssertGreaterThan(ttl, 0, "every cache key has a TTL, so volatile-lru may evict it (and never the feed)")
        XCTAssertLessThanOrEqual(ttl, 300_000)
    }

    func testAnswersForAnotherCredentialLiveUnderAnotherKey() {
        XCTAssertNotEqual(RedisUpstreamCache.redisKey(key), RedisUpstreamCache.redisKey(UpstreamCacheKey(url: key.url, credential: "abc")))
    }

    func testPausedRedisIsAFastMissNotAWait() throws {
        let tier = try replicaTier()
        tier.store(entry, for: key)
        let redis = self.redis!, stored = RedisUpstreamCache.redisKey(key)
        waitUntil("stored") { (try? redis.cli(["EXISTS", stored])) == "1\n" }
        redis.pause()
        defer { redis.resume() }
        let started = ContinuousClock.now
        XCTAssertNil(try lookUp(tier))
        XCTAssertLessThan(ContinuousClock.now - started, .milliseconds(500))
    }
}
