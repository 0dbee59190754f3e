// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Domain
import Foundation
import HTTPTestSupport
import Redis
import RedisTestSupport
import Tracing
import XCTest
@testable import Server

/// A real redis-server and N in-process replicas sharing it (each with its own
/// pipeline hub, as separate processes would have), on loopback ephemeral ports. With
/// `sentinels`, the replicas find Redis through them (`--redis-sentinels`) instead.
final class ReplicaSet {
    let redis: RedisServerProcess
    let sentinels: RedisSentinelTopology?
    private(set) var replicas: [AppHarness] = []
    private(set) var hubs: [PipelineEventHub] = []
    private let test: XCTestCase
    /// Every replica's tracer (nil: none).
    private let tracer: (any Tracer)?

    init(
        _ test: XCTestCase, count: Int, redis: RedisServerProcess? = nil, sentinels: RedisSentinelTopology? = nil, tracer: (any Tracer)? = nil,
        configure: @escaping (inout ServiceConfiguration) -> Void = { _ in }
    ) throws {
        self.test = test
        self.tracer = tracer
        self.sentinels = sentinels
        self.redis = try redis ?? sentinels?.nodes[0] ?? RedisServerProcess()
        let server = self.redis
        test.addTeardownBlock { server.stop() }
        if let sentinels { test.addTeardownBlock { sentinels.stop() } }
        for index in 0..<count { try add(id: "replica-\(index)", configure: configure) }
    }

    /// Starts one more replica named `id` and waits (5 s at most) until its feed is shared.
    @discardableResult
    func add(id: String, url: String? = nil, waitForShared: Bool = true, configure: (inout ServiceConfiguration) -> Void = { _ in }) throws -> AppHarness {
        let hub = PipelineEventHub()
        let redisURL = try RedisURL(parsing: url ?? redis.url)
        let sentinelList = try sentinels.map { try RedisSentinelList(parsing: $0.sentinelList) }
        let masterName = sentinels?.masterName ?? ""
        let replica = try AppHarness(test, hub: hub, tracer: tracer) {
            $0.redisURL = redisURL
            if let sentinelList {
                $0.redisURL = sentinelList.url
                $0.redisSentinels = RedisSentinelSettings(list: sentinelList, masterName: masterName)
            }
            $0.replicaID = id
            configure(&$0)
        }
        replicas.append(replica)
        hubs.append(hub)
        if waitForShared { waitUntilShared(replica) }
        return replica
    }

    subscript(index: Int) -> AppHarness { replicas[index] }

    func waitUntilShared(_ replica: AppHarness, timeout: TimeInterval = 5) {
        let port = replica.port
        test.waitUntil("replica on :\(port) shares the feed", timeout: timeout) { Self.eventsStatus(port: port) == "shared" }
    }

    /// `/ready`'s `events` field on the replica at `port`, nil when the request fails.
    static func eventsStatus(port: Int) -> String? {
        guard let client = try? RawHTTPClient(port: port),
              (try? client.send("GET /ready HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")) != nil else { return nil }
        return (try? client.readResponse())?.bodyJSON?["events"] as? String
    }

    /// A pipeline event produced on replica `index` (as a pipeline run there would publish it).
    func produce(on index: Int, stage: String, pipeline: String = "avatar") {
        hubs[index].publish(PipelineEvent(kind: .data, pipeline: pipeline, requestId: "r-\(stage)", stage: stage))
    }

    /// An `/events` client on replica `index` that has received the stream's prelude (so it is subscribed).
    func subscribe(to index: Int, pipeline: String = "avatar", lastEventID: String? = nil) throws -> SSETestClient {
        let headers = lastEventID.map { ["Last-Event-ID": $0] } ?? [:]
        let client = try SSETestClient(port: replicas[index].port, target: "/events?pipeline=\(pipeline)", headers: headers)
        XCTAssertEqual(client.status, 200)
        if lastEventID == nil { _ = try client.next() }
        return client
    }
}

/// An SSE message as the tests compare them.
struct FeedEvent: Equatable, CustomStringConvertible {
    let id: String?
    let event: String?
    let data: String?

    init(_ message: SSETestClient.Message) {
        id = message.id
        event = message.event
        data = message.data
    }

    var json: [String: Any] { (data.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) } as? [String: Any]) ?? [:] }
    var description: String { "id: \(id ?? "-") event: \(event ?? "-") data: \(data ?? "-")" }
}

extension SSETestClient {
    /// The next `count` events (comments skipped); fails the test when fewer arrive in time.
    func events(_ count: Int) throws -> [FeedEvent] {
        try (0..<count).map { _ in FeedEvent(try XCTUnwrap(nextEvent(), "the stream ended early")) }
    }
}
