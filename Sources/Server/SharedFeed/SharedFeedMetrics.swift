// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import CoreMetrics
import Redis

/// The shared feed's families at `/metrics`, copied from the connections and the
/// publish queue at every scrape: connection state per role (1 = current),
/// reconnects, queue depth and drops.
final class SharedFeedMetrics: Sendable {
    static let stateName = "redis_connection_state"
    static let reconnectsName = "redis_reconnects_total"
    static let failoversName = "redis_failovers_followed_total"
    static let queueDepthName = "events_publish_queue_depth"
    static let droppedName = "events_publish_dropped_total"
    static let historyResetsName = "events_history_resets_total"

    static let descriptions = [
        MetricDescription(stateName, help: "State of the shared feed's Redis connections (1 = current), by role and state."),
        MetricDescription(reconnectsName, help: "Times a lost Redis connection of the shared feed was established again, by role."),
        MetricDescription(failoversName, help: "Times a Redis connection of the shared feed came up on another primary than before (a failover followed), by role."),
        MetricDescription(queueDepthName, help: "Events waiting to be sent to Redis."),
        MetricDescription(droppedName, help: "Events dropped because the publish queue was full while Redis was unreachable."),
        MetricDescription(historyResetsName, help: "Times live /events subscribers were told reset because the shared history changed (Redis lost writes this replica had read: a failover before replication, a restart, a flush)."),
    ]

    private static let states = ["connecting", "connected", "disconnected", "closed"]

    private struct Role: Sendable {
        let connection: RedisConnection
        let states: [(String, Meter)]
        let reconnects: Counter
        let failovers: Counter
    }

    private let roles: [Role]
    private let depth: Meter
    private let dropped: Counter
    private let historyResets: Counter
    private let historyResetsNow: @Sendable () -> Int
    private let publisher: SharedFeedPublisher
    /// Counts already added to the counters, so each scrape adds only what is new.
    private let reported = Locked((reconnects: [Int](), failovers: [Int](), dropped: 0, resets: 0))

    init(
        connections: [(role: String, connection: RedisConnection)], publisher: SharedFeedPublisher,
        historyResets: @escaping @Sendable () -> Int = { 0 }, factory: any MetricsFactory
    ) {
        roles = connections.map { role, connection in
            Role(
                connection: connection,
                states: Self.states.map { ($0, Meter(label: Self.stateName, dimensions: [("role", role), ("state", $0)], factory: factory)) },
                reconnects: Counter(label: Self.reconnectsName, dimensions: [("role", role)], factory: factory),
                failovers: Counter(label: Self.failoversName, dimensions: [("role", role)], factory: factory))
        }
        depth = Meter(label: Self.queueDepthName, factory: factory)
        dropped = Counter(label: Self.droppedName, factory: factory)
        self.historyResets = Counter(label: Self.historyResetsName, factory: factory)
        historyResetsNow = historyResets
        self.publisher = publisher
        reported.withLock {
            $0.reconnects = Array(repeating: 0, count: connections.count)
            $0.failovers = $0.reconnects
        }
        sample()
    }

    func sample() {
        let reconnects = roles.map(\.connection.reconnects)
        let failovers = roles.map(\.connection.failoversFollowed)
        let drops = publisher.dropped
        let resets = historyResetsNow()
        let (newReconnects, newFailovers, newDrops, newResets) = reported.withLock { reported -> ([Int], [Int], Int, Int) in
            defer { reported = (reconnects, failovers, drops, resets) }
            return (
                zip(reconnects, reported.reconnects).map { $0 - $1 }, zip(failovers, reported.failovers).map { $0 - $1 },
                drops - reported.dropped, resets - reported.resets)
        }
        for (index, role) in roles.enumerated() {
            let current = role.connection.state.name
            for (state, meter) in role.states { meter.set(state == current ? 1 : 0) }
            role.reconnects.increment(by: newReconnects[index])
            role.failovers.increment(by: newFailovers[index])
        }
        depth.set(publisher.depth)
        dropped.increment(by: newDrops)
        historyResets.increment(by: newResets)
    }
}
