// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NetCore
import Redis
import Streams

/// The upstream response cache's shared tier: entries in Redis under
/// `stream-service:cache:<sha256 of key>`, each with a TTL, so replicas reuse each
/// other's answers (behind each one's in-process LRU, see `TieredUpstreamCache`).
///
/// Every key has a TTL and the event feed's keys none, so with `maxmemory-policy
/// volatile-lru` Redis evicts cache entries under memory pressure, never the feed.
/// Requests never wait on Redis: a lookup that has no answer within `lookupTimeout`
/// (Redis paused, slow, or down) is a miss, and storing never waits for a reply.
final class RedisUpstreamCache: UpstreamCacheStore {
    static let prefix = "stream-service:cache:"

    private let connection: RedisConnection
    /// How long a cached answer stays in Redis (the in-process tier revalidates with the upstream anyway).
    private let ttl: Duration
    /// A miss costs one upstream request (~100 ms to GitHub); Redis on the same network answers in ~1 ms.
    private let lookupTimeout: Duration
    private let scheduler: any Scheduler

    init(connection: RedisConnection, ttl: Duration = .seconds(300), lookupTimeout: Duration = .milliseconds(50),
         scheduler: any Scheduler = QueueScheduler(label: "cache.redis.timeouts")) {
        self.connection = connection
        self.ttl = ttl
        self.lookupTimeout = lookupTimeout
        self.scheduler = scheduler
    }

    static func redisKey(_ key: UpstreamCacheKey) -> String {
        prefix + MessageDigest.sha256.hex(Array("\(key.credential) \(key.url)".utf8))
    }

    func entry(for key: UpstreamCacheKey) -> DataStream<UpstreamCacheEntry?> {
        let connection = self.connection
        return DataStream<UpstreamCacheEntry?> { watcher in
            connection.send(["GET", Self.redisKey(key)]) { result in
                watcher.data((try? result.get())?.string.flatMap(StoredEntry.decode))
                watcher.end()
            }
            return Disposable()
        }
        .timeout(lookupTimeout, scheduler: scheduler)
        .recover(nil)
    }

    func store(_ entry: UpstreamCacheEntry, for key: UpstreamCacheKey) {
        guard let text = StoredEntry.encode(entry) else { return }
        connection.send(["SET", Self.redisKey(key), text, "PX", String(ttl.milliseconds)]) { _ in }
    }
}

/// An entry as stored: JSON with the body in base64 (a byte array in JSON is four times larger).
private struct StoredEntry: Codable {
    let status: Int
    let headers: [String: String]
    let body: String

    static func encode(_ entry: UpstreamCacheEntry) -> String? {
        let stored = StoredEntry(status: entry.status, headers: entry.headers, body: Data(entry.body).base64EncodedString())
        return (try? JSONEncoder().encode(stored)).map { String(decoding: $0, as: UTF8.self) }
    }

    static func decode(_ text: String) -> UpstreamCacheEntry? {
        guard let stored = try? JSONDecoder().decode(StoredEntry.self, from: Data(text.utf8)),
              let body = Data(base64Encoded: stored.body) else { return nil }
        return UpstreamCacheEntry(UpstreamResponse(status: stored.status, headers: stored.headers, body: Array(body)))
    }
}
