// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Domain
import HTTP
import Logging
import Redis

/// `/events` shared by every replica with the same `--redis-url`: this replica's
/// events are published to one Redis stream (`SharedFeedPublisher`) and every
/// replica's event log is fed from that stream (`SharedFeedIngest`) under the ids
/// Redis gave them, so all of them show the same ids, data and order, and
/// `Last-Event-ID` resumes on any.
///
/// Two connections: publishing is pipelined, reading blocks in XREAD. Requests
/// never wait on either; while one is down the feed is "degraded" (`/ready`).
final class SharedEventFeed: Sendable {
    static let degraded = "degraded"
    static let shared = "shared"

    let replicaID: String
    let publisher: SharedFeedPublisher
    private let ingest: SharedFeedIngest
    private let publishConnection: RedisConnection
    private let readConnection: RedisConnection
    private let clock: Duration?

    /// Throws when `rediss://` cannot set up TLS (e.g. an unreadable CA store).
    init(redis configuration: RedisConfiguration, replicaID: String, feed: PipelineEventFeed, clock: Duration?, logger: Logger) throws {
        self.replicaID = replicaID
        self.clock = clock
        let keys = SharedFeedKeys()
        let target = configuration.target
        // Both connections report to relays filled in below: their handlers need the publisher and ingest.
        let publishRelay = Locked<(@Sendable (RedisConnectionState) -> Void)?>(nil)
        let readRelay = Locked<(@Sendable (RedisConnectionState) -> Void)?>(nil)
        publishConnection = try RedisConnection(configuration: configuration) { state in publishRelay.withLock { $0 }?(state) }
        readConnection = try RedisConnection(configuration: configuration) { state in readRelay.withLock { $0 }?(state) }
        let log = feed.log
        publisher = SharedFeedPublisher(connection: publishConnection, keys: keys, history: log.capacity, floor: { log.lastID })
        ingest = SharedFeedIngest(
            connection: readConnection, keys: keys, replayCount: log.capacity,
            sink: SharedFeedIngest.Sink(
                publish: { entry in
                    if let item = PipelineEventFeed.item(from: entry) { log.publish(item, id: entry.id) }
                },
                restart: { lastID, notifying in log.restart(at: lastID, notifying: notifying) },
                lastID: { log.lastID }),
            onError: { message in logger.error("\(message)") },
            onHistoryChange: { message in logger.warning("\(message)", metadata: ["redis": .string(configuration.target)]) })
        let publisher = self.publisher, ingest = self.ingest
        let publishConnection = self.publishConnection, readConnection = self.readConnection
        publishRelay.withLock { $0 = { state in
            Self.log(state, role: "publish", target: target, at: publishConnection.connectedAddress, logger: logger)
            if state == .connected { publisher.connected() }
        } }
        readRelay.withLock { $0 = { state in
            Self.log(state, role: "read", target: target, at: readConnection.connectedAddress, logger: logger)
            if state == .connected { ingest.connected() }
        } }
    }

    func start() {
        publishConnection.start()
        readConnection.start()
    }

    func stop() {
        ingest.stop()
        publishConnection.close()
        readConnection.close()
    }

    /// "shared" while both connections are up on the primary and deliveries flow from a history
    /// checked since the last reconnection; else "degraded" (events wait in the queue): no primary
    /// reachable, or the feed behind a failover until it has read the new primary.
    var status: String {
        publishConnection.state == .connected && readConnection.state == .connected && ingest.isCurrent ? Self.shared : Self.degraded
    }

    /// Queues `event`, tagged with this replica, for the shared stream; never blocks.
    func publish(_ event: PipelineEvent) {
        var event = event
        event.replica = replicaID
        // Not numbered yet (no id in the JSON): the shared stream numbers it, and each replica's
        // log writes the event's JSON with that number.
        event.id = 0
        publisher.enqueue(.init(event: event.kind.rawValue, data: event.json, pipeline: event.pipeline))
    }

    /// Queues clock tick `index`; Redis appends it only while this replica holds the clock lease
    /// (three periods long, at least 1 s), so the shared feed ticks once per period, not once per replica.
    func publishTick(_ index: Int) {
        let lease = max(1000, 3 * (clock ?? .seconds(1)).milliseconds)
        publisher.enqueue(.init(event: PipelineEventFeed.tickEvent, data: PipelineEventFeed.tickData(index), leaseOwner: replicaID, leaseMilliseconds: lease))
    }

    private static func log(_ state: RedisConnectionState, role: String, target: String, at address: RedisAddress?, logger: Logger) {
        var metadata: Logger.Metadata = ["redis": .string(target), "connection": .string(role)]
        switch state {
        case .connected:
            let place = address.map { " at \($0)" } ?? ""
            if let address { metadata["address"] = .string(address.description) }
            logger.info("redis \(role) connection up\(place): /events shared through \(target)", metadata: metadata)
        case .disconnected(let reason):
            logger.error("redis \(role) connection down: \(reason); /events degraded, events queue until it is back", metadata: metadata)
        case .connecting, .closed:
            break
        }
    }

    /// Shows the connections and the publish queue at `/metrics` (see `SharedFeedMetrics`).
    func installMetrics(into metrics: ServiceMetrics) {
        let families = SharedFeedMetrics(
            connections: [("publish", publishConnection), ("read", readConnection)], publisher: publisher,
            historyResets: { [ingest] in ingest.historyResets }, factory: metrics.factory)
        metrics.sampleAtScrape { families.sample() }
    }
}
