// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation

/// A Sentinel-managed Redis on loopback for one test: a primary, `replicas` replicas and
/// `sentinels` sentinels (quorum 2), with short detection times (down after 400 ms) so a
/// failover takes a few seconds. Every process is its own `RedisServerProcess`, stopped by PID.
///
/// `stopReplication()` leaves the replicas behind (each re-pointed at a `TCPRelay` that moves no
/// bytes), so writes the primary acknowledges from then on are lost by a SIGKILL of it
/// (`killPrimary()`): the loss asynchronous replication allows. (Replicas cannot replicate
/// through a relay all along: a sentinel re-points a replica whose master address is not the
/// one it monitors, `+fix-slave-config`, within `failover-timeout`.)
// @unchecked: a test drives it from its one thread.
public final class RedisSentinelTopology: @unchecked Sendable {
    /// `mymaster-` and a random suffix: sentinels left behind by a crashed test process never
    /// mistake this topology's nodes (their ports may be reused) for the master they watched.
    public let masterName: String

    /// Node 0 starts as the primary; the others replicate it.
    public let nodes: [RedisServerProcess]
    public let sentinels: [RedisServerProcess]
    /// The stalled replication links of `stopReplication()`.
    public private(set) var relays: [TCPRelay] = []
    private let directory: String

    public init(replicas: Int = 2, sentinels sentinelCount: Int = 3) throws {
        let name = "mymaster-\(UInt32.random(in: 0...UInt32.max))"
        masterName = name
        directory = NSTemporaryDirectory() + "sentinel-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let primary = try RedisServerProcess()
        var nodes = [primary]
        for _ in 0..<replicas {
            nodes.append(try RedisServerProcess(arguments: ["--replicaof", "127.0.0.1", String(primary.port)]))
        }
        self.nodes = nodes
        let configuration = """
            sentinel monitor \(name) 127.0.0.1 \(primary.port) 2
            sentinel down-after-milliseconds \(name) 400
            sentinel failover-timeout \(name) 2000
            sentinel parallel-syncs \(name) 2
            """
        let directory = directory
        sentinels = try (0..<sentinelCount).map { _ in try RedisServerProcess(sentinel: configuration, directory: directory) }
        try waitUntilSettled(replicas: replicas)
    }

    deinit { stop() }

    /// `127.0.0.1:p1,127.0.0.1:p2,…`, as `--redis-sentinels` takes it.
    public var sentinelList: String { sentinels.map { "127.0.0.1:\($0.port)" }.joined(separator: ",") }

    /// The node the sentinels name as the primary now (asked of the first that answers).
    public func primary() throws -> RedisServerProcess {
        for sentinel in sentinels {
            guard let reply = try? sentinel.cli(["SENTINEL", "get-master-addr-by-name", masterName]) else { continue }
            let lines = reply.split(separator: "\n")
            if lines.count == 2, let port = Int(lines[1]), let node = nodes.first(where: { $0.port == port }) { return node }
        }
        throw RedisServerProcess.Failure(description: "no sentinel names a primary")
    }

    /// From now on writes stay on the primary alone: every replica is re-pointed at a relay to the
    /// primary that moves no bytes (REPLICAOF drops the old link at once, so nothing in flight
    /// arrives); a replica keeps its data while it waits to sync.
    public func stopReplication() throws {
        let primary = try primary()
        for node in nodes where node !== primary && node.isRunning {
            let relay = try TCPRelay(to: primary.port)
            relay.pause()
            relays.append(relay)
            try node.cli(["REPLICAOF", "127.0.0.1", String(relay.port)])
        }
    }

    /// Asks a sentinel to fail over now (no agreement needed) and waits until every sentinel names
    /// another primary (15 s at most); returns it.
    @discardableResult
    public func failover() throws -> RedisServerProcess {
        let old = try primary()
        // Refused (INPROG, NOGOODSLAVE) while a previous failover settles: asked again, 15 s at most.
        let deadline = Date().addingTimeInterval(15)
        while try sentinels[0].cli(["SENTINEL", "FAILOVER", masterName]) != "OK\n" {
            guard Date() < deadline else { throw RedisServerProcess.Failure(description: "SENTINEL FAILOVER refused for 15 s") }
            usleep(100_000)
        }
        return try waitForPrimary(other: old)
    }

    /// Kills the primary (SIGKILL), first dropping what its relays hold, so writes not yet
    /// replicated are lost; waits (15 s at most) until every sentinel names a promoted replica.
    @discardableResult
    public func killPrimary() throws -> RedisServerProcess {
        let old = try primary()
        try waitUntilSettled(replicas: nodes.filter { $0 !== old && $0.isRunning }.count)
        for relay in relays { relay.cutAll() }
        old.stop()
        return try waitForPrimary(other: old)
    }

    /// Polls every 20 ms until all sentinels agree on a primary other than `old` that says it is one.
    public func waitForPrimary(other old: RedisServerProcess, timeout: TimeInterval = 15) throws -> RedisServerProcess {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let named = sentinels.compactMap { sentinel -> Int? in
                let lines = ((try? sentinel.cli(["SENTINEL", "get-master-addr-by-name", masterName])) ?? "").split(separator: "\n")
                return lines.count == 2 ? Int(lines[1]) : nil
            }
            if named.count == sentinels.count, Set(named).count == 1, named[0] != old.port,
               let node = nodes.first(where: { $0.port == named[0] }),
               (try? node.cli(["ROLE"]))?.hasPrefix("master") == true {
                return node
            }
            usleep(20_000)
        }
        throw RedisServerProcess.Failure(description: "no failover away from :\(old.port) within \(timeout) s")
    }

    /// Every node and sentinel, killed by PID; relays closed.
    public func stop() {
        for relay in relays { relay.stop() }
        for process in sentinels + nodes { process.stop() }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Until every sentinel knows `replicas` replicas linked to the primary, and the other sentinels:
    /// before that a failover could not pick a replica or reach a quorum. 30 s at most.
    public func waitUntilSettled(replicas: Int) throws {
        let deadline = Date().addingTimeInterval(30)
        let others = sentinels.count - 1
        while Date() < deadline {
            let settled = sentinels.allSatisfy { sentinel in
                let linked = ((try? sentinel.cli(["SENTINEL", "replicas", masterName])) ?? "")
                    .components(separatedBy: "master-link-status\nok").count - 1
                let peers = ((try? sentinel.cli(["SENTINEL", "sentinels", masterName])) ?? "")
                    .components(separatedBy: "\nrunid\n").count - 1
                // A replica that is gone may still be listed, but never as linked.
                return linked >= replicas && peers >= others
            }
            if settled { return }
            usleep(50_000)
        }
        throw RedisServerProcess.Failure(description: "sentinels did not learn the replicas and each other within 30 s")
    }
}
