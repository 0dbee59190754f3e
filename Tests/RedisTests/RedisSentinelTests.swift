// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Foundation
import HTTPTestSupport
import Redis
import RedisTestSupport
import XCTest

/// Connections that follow a Sentinel-managed primary: a real primary, two replicas and three
/// sentinels on loopback (`RedisSentinelTopology`).
final class RedisSentinelTests: XCTestCase {
    private var topology: RedisSentinelTopology!
    private var sentinel: RedisSentinel!
    private var connections: [RedisConnection] = []

    override func setUpWithError() throws {
        topology = try RedisSentinelTopology()
        let addresses = topology.sentinels.map { RedisAddress(host: "127.0.0.1", port: $0.port) }
        sentinel = RedisSentinel(masterName: topology.masterName, sentinels: addresses)
        try sentinel.start()
    }

    override func tearDown() {
        for connection in connections { connection.close() }
        sentinel?.close()
        topology?.stop()
    }

    private func connected() throws -> RedisConnection {
        let connection = try RedisConnection(configuration: RedisConfiguration(url: RedisURL(host: "unused"), sentinel: sentinel))
        connections.append(connection)
        connection.start()
        waitUntil("connected", timeout: 5) { connection.state == .connected }
        return connection
    }

    func testConnectionReachesThePrimaryTheSentinelsName() throws {
        let connection = try connected()
        let primary = try topology.primary()
        XCTAssertEqual(connection.connectedAddress?.port, primary.port)
        XCTAssertEqual(try connection.reply(["SET", "where", "primary"]), .simpleString("OK"))
        XCTAssertEqual(try primary.cli(["GET", "where"]), "primary\n")
    }

    func testForcedFailoverMovesTheConnectionWithinASecondOfTheSwitch() throws {
        let announced = Locked<ContinuousClock.Instant?>(nil), up = Locked<ContinuousClock.Instant?>(nil)
        let token = sentinel.watch { _ in announced.withLock { $0 = .now } }
        defer { sentinel.unwatch(token) }
        let connection = try RedisConnection(configuration: RedisConfiguration(url: RedisURL(host: "unused"), sentinel: sentinel)) { state in
            if state == .connected { up.withLock { $0 = .now } }
        }
        connections.append(connection)
        connection.start()
        waitUntil("connected", timeout: 5) { connection.state == .connected }
        let promoted = try topology.failover()
        waitUntil("on the new primary", timeout: 5) { connection.state == .connected && connection.connectedAddress?.port == promoted.port }
        let moved = try XCTUnwrap(up.withLock { $0 }) - XCTUnwrap(announced.withLock { $0 })
        print("figure: connection up on the new primary \(moved) after +switch-master reached this process")
        XCTAssertLessThan(moved, .seconds(1))
        XCTAssertEqual(connection.failoversFollowed, 1)
        XCTAssertEqual(try connection.reply(["SET", "after", "switch"]), .simpleString("OK"))
        XCTAssertEqual(try promoted.cli(["GET", "after"]), "switch\n")
    }

    func testKilledPrimaryIsFollowedToThePromotedReplica() throws {
        let connection = try connected()
        let promoted = try topology.killPrimary()
        waitUntil("on the new primary", timeout: 5) { connection.state == .connected && connection.connectedAddress?.port == promoted.port }
        XCTAssertEqual(try connection.reply(["INCR", "n"]), .integer(1))
    }

    func testTwoFailoversInARowAreBothFollowed() throws {
        let connection = try connected()
        for round in 1...2 {
            let promoted = try topology.failover()
            waitUntil("on primary \(round)", timeout: 5) { connection.state == .connected && connection.connectedAddress?.port == promoted.port }
            XCTAssertEqual(try connection.reply(["INCR", "rounds"]).int, try promoted.cli(["GET", "rounds"]).split(separator: "\n").first.flatMap { Int($0) })
        }
        XCTAssertEqual(connection.failoversFollowed, 2)
    }

    func testUnknownMasterNameSaysSoInTheState() throws {
        let addresses = topology.sentinels.map { RedisAddress(host: "127.0.0.1", port: $0.port) }
        let wrong = RedisSentinel(masterName: "nosuchmaster", sentinels: addresses)
        defer { wrong.close() }
        try wrong.start()
        let connection = try RedisConnection(configuration: RedisConfiguration(url: RedisURL(host: "unused"), sentinel: wrong))
        connections.append(connection)
        connection.start()
        waitUntil("refused", timeout: 5) {
            if case .disconnected(let reason) = connection.state { return reason.contains("do not monitor a master named nosuchmaster") }
            return false
        }
    }
}

/// A connection that must reach the primary leaves a node that is (or becomes) a replica.
final class RedisPrimaryRoleTests: XCTestCase {
    /// A connection to a primary, and another node the test can demote it under; all stopped at teardown.
    private func connectedToAPrimaryBesideAnotherNode() throws -> (primary: RedisServerProcess, other: RedisServerProcess, connection: RedisConnection) {
        let primary = try RedisServerProcess()
        addTeardownBlock { primary.stop() }
        let other = try RedisServerProcess()
        addTeardownBlock { other.stop() }
        let connection = try RedisConnection(configuration: RedisConfiguration(url: RedisURL(host: "127.0.0.1", port: primary.port)))
        addTeardownBlock { connection.close() }
        connection.start()
        waitUntil("connected", timeout: 5) { connection.state == .connected }
        return (primary, other, connection)
    }

    func testReplicaIsLeftAtTheHandshake() throws {
        let primary = try RedisServerProcess()
        defer { primary.stop() }
        let replica = try RedisServerProcess(arguments: ["--replicaof", "127.0.0.1", String(primary.port)])
        defer { replica.stop() }
        let connection = try RedisConnection(configuration: RedisConfiguration(url: RedisURL(host: "127.0.0.1", port: replica.port)))
        defer { connection.close() }
        connection.start()
        waitUntil("refused", timeout: 5) {
            if case .disconnected(let reason) = connection.state { return reason.contains("is a slave, not the primary") }
            return false
        }
    }

    func testREADONLYReplyLeavesTheDemotedNodeAndFailsTheCommandAsLost() throws {
        let (primary, other, connection) = try connectedToAPrimaryBesideAnotherNode()
        try primary.cli(["REPLICAOF", "127.0.0.1", String(other.port)])
        XCTAssertThrowsError(try connection.reply(["SET", "k", "v"])) { error in
            guard case RedisError.connectionLost(let reason) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("READONLY"), reason)
        }
        try primary.cli(["REPLICAOF", "NO", "ONE"])
        waitUntil("back once it is a primary again", timeout: 5) { connection.state == .connected }
    }
}

extension RedisPrimaryRoleTests {
    func testUNBLOCKEDReplyToABlockedReadLeavesTheDemotedNodeAndFailsTheReadAsLost() throws {
        let (primary, other, connection) = try connectedToAPrimaryBesideAnotherNode()
        let read = Locked<Result<RESPValue, RedisError>?>(nil)
        connection.send(["XREAD", "BLOCK", "20000", "STREAMS", "s", "$"], timeout: .seconds(30)) { outcome in read.withLock { $0 = outcome } }
        waitUntil("the read blocks", timeout: 5) { (try? primary.cli(["INFO", "clients"]))?.contains("blocked_clients:1") ?? false }
        try primary.cli(["REPLICAOF", "127.0.0.1", String(other.port)])
        waitUntil("the read is answered", timeout: 5) { read.withLock { $0 } != nil }
        guard case .failure(.connectionLost(let reason)) = read.withLock({ $0 }) else {
            return XCTFail("a read ended by the demotion fails as lost (to be read again on the primary): \(String(describing: read.withLock { $0 }))")
        }
        XCTAssertTrue(reason.contains("UNBLOCKED"), reason)
        waitUntil("left: the node is a replica now", timeout: 5) {
            if case .disconnected(let reason) = connection.state { return reason.contains("not the primary") }
            return false
        }
    }
}

final class RedisSentinelListTests: XCTestCase {
    func testHostsPortsCredentialsDatabaseAndTLS() throws {
        let list = try RedisSentinelList(parsing: "rediss://app:s%40cret@s1:26380,[::1]:26381,s3/2")
        XCTAssertEqual(list.sentinels, [RedisAddress(host: "s1", port: 26380), RedisAddress(host: "::1", port: 26381), RedisAddress(host: "s3", port: 26379)])
        XCTAssertEqual(list.url.user, "app")
        XCTAssertEqual(list.url.password, "s@cret")
        XCTAssertEqual(list.url.database, 2)
        XCTAssertTrue(list.url.usesTLS)
    }

    func testPlainListHasNoCredentials() throws {
        let list = try RedisSentinelList(parsing: "10.0.0.1:26379, 10.0.0.2:26379")
        XCTAssertEqual(list.sentinels.map(\.host), ["10.0.0.1", "10.0.0.2"])
        XCTAssertNil(list.url.password)
        XCTAssertFalse(list.url.usesTLS)
    }

    func testBadEntriesAreNamedWithoutThePassword() {
        for (text, expected) in [
            ("s1:26379,,s2", "empty entry"),
            (":secret@s1:notaport", "'s1:notaport': port 'notaport'"),
            ("http://s1", "scheme must be redis:// or rediss://"),
            ("", "empty entry"),
        ] {
            XCTAssertThrowsError(try RedisSentinelList(parsing: text), text) { error in
                let description = String(describing: error)
                XCTAssertTrue(description.contains(expected), description)
                XCTAssertFalse(description.contains("secret"), description)
            }
        }
    }
}
