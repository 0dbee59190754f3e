// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Dispatch
import HTTPTestSupport
import Redis
import RedisTestSupport
import XCTest

/// A real redis-server per test, on its own loopback port.
final class RedisConnectionTests: XCTestCase {
    private var server: RedisServerProcess!
    private var connections: [RedisConnection] = []

    override func setUpWithError() throws {
        server = try RedisServerProcess()
    }

    override func tearDown() {
        for connection in connections { connection.close() }
        server?.stop()
        server = nil
    }

    private func connect(_ urlText: String? = nil, configure: (inout RedisConfiguration) -> Void = { _ in }) throws -> RedisConnection {
        var configuration = RedisConfiguration(url: try RedisURL(parsing: urlText ?? server.url))
        configure(&configuration)
        let connection = try RedisConnection(configuration: configuration)
        connections.append(connection)
        connection.start()
        return connection
    }

    private func connected(_ urlText: String? = nil, configure: (inout RedisConfiguration) -> Void = { _ in }) throws -> RedisConnection {
        let connection = try connect(urlText, configure: configure)
        waitUntil("connected", timeout: 5) { connection.state == .connected }
        return connection
    }

    func testSetThenGetReturnsTheValue() throws {
        let connection = try connected()
        XCTAssertEqual(try connection.reply(["SET", "greeting", "hello"]), .simpleString("OK"))
        XCTAssertEqual(try connection.reply(["GET", "greeting"]).string, "hello")
    }

    func testPipelinedBatchRepliesInCommandOrder() throws {
        let connection = try connected()
        let results = Locked<[Result<RESPValue, RedisError>]>([])
        connection.send(batch: (0..<2000).map { _ in ["INCR", "counter"] }) { batch in results.withLock { $0 = batch } }
        waitUntil("all replies", timeout: 5) { results.withLock { !$0.isEmpty } }
        XCTAssertEqual(results.withLock { $0 }.map { try? $0.get().int }, (1...2000).map { $0 })
    }

    func testErrorReplyIsAServerError() throws {
        let connection = try connected()
        XCTAssertThrowsError(try connection.reply(["NOSUCHCOMMAND"])) { error in
            guard case RedisError.server(let message) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(message.hasPrefix("ERR unknown command"), message)
        }
    }

    func testCommandWhileNotConnectedFailsAtOnce() throws {
        let url = server.url
        server.stop()
        let connection = try connect(url)
        waitUntil("disconnected") { if case .disconnected = connection.state { true } else { false } }
        let started = ContinuousClock.now
        XCTAssertThrowsError(try connection.reply(["PING"])) { error in
            guard case RedisError.notConnected(let reason) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("cannot connect to 127.0.0.1"), reason)
        }
        XCTAssertLessThan(ContinuousClock.now - started, .milliseconds(100))
    }

    func testAHostThatDoesNotResolveIsSaidOnceInWords() throws {
        // `.invalid` never resolves (RFC 6761), without asking the network.
        let connection = try connect("redis://nonexistent.invalid:6379")
        waitUntil("disconnected") { if case .disconnected = connection.state { true } else { false } }
        XCTAssertThrowsError(try connection.reply(["PING"])) { error in
            guard case RedisError.notConnected(let reason) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.hasPrefix("cannot resolve nonexistent.invalid: "), reason)
            XCTAssertEqual(reason.components(separatedBy: "nonexistent.invalid").count, 2, "the host named once: \(reason)")
            for noise in ["errno", "getaddrinfo", "failed", "Invalid argument"] { XCTAssertFalse(reason.contains(noise), reason) }
        }
    }

    func testSelectedDatabaseIsTheURLs() throws {
        let connection = try connected(server.url + "/3")
        _ = try connection.reply(["SET", "where", "db3"])
        XCTAssertEqual(try server.cli(["-n", "3", "GET", "where"]), "db3\n")
        XCTAssertEqual(try server.cli(["-n", "0", "EXISTS", "where"]), "0\n")
    }

    func testDroppedConnectionReconnectsAndCountsIt() throws {
        let connection = try connected()
        try server.cli(["CLIENT", "KILL", "TYPE", "normal"])
        waitUntil("reconnected") { connection.reconnects == 1 && connection.state == .connected }
        XCTAssertEqual(try connection.reply(["PING"]), .simpleString("PONG"))
    }

    func testRestartedServerIsReconnectedWithinOneSecond() throws {
        let connection = try connected()
        server.stop()
        waitUntil("noticed the loss") { connection.state != .connected }
        try server.restart()
        let back = ContinuousClock.now
        waitUntil("reconnected", timeout: 1.5) { connection.state == .connected }
        XCTAssertLessThan(ContinuousClock.now - back, .seconds(1))
    }

    func testPausedServerTimesTheCommandOutThenRecoversAfterResume() throws {
        let connection = try connected(configure: { $0.commandTimeout = .milliseconds(300); $0.connectTimeout = .milliseconds(300) })
        server.pause()
        let started = ContinuousClock.now
        XCTAssertThrowsError(try connection.reply(["PING"])) { error in
            XCTAssertEqual(error as? RedisError, .timedOut(after: .milliseconds(300)))
        }
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(1))
        XCTAssertNotEqual(connection.state, .connected)
        server.resume()
        waitUntil("reconnected", timeout: 2) { connection.state == .connected }
        XCTAssertEqual(try connection.reply(["PING"]), .simpleString("PONG"))
    }

    func testCloseFailsWaitingCommandsAndStopsReconnecting() throws {
        let connection = try connected()
        let outcome = Locked<Result<RESPValue, RedisError>?>(nil)
        // BLPOP with timeout 0 waits forever, so the reply is still pending when close() runs.
        connection.send(["BLPOP", "never", "0"], timeout: .seconds(30)) { result in outcome.withLock { $0 = result } }
        let server = self.server!
        waitUntil("blocked in Redis") { (try? server.cli(["CLIENT", "LIST"]).contains("cmd=blpop")) ?? false }
        connection.close()
        waitUntil("failed") { outcome.withLock { $0 != nil } }
        XCTAssertEqual(outcome.withLock { $0.map { result in result.map { _ in 0 } } }, .failure(.closed))
        XCTAssertEqual(connection.state, .closed)
    }
}

/// Servers with `requirepass`.
final class RedisAuthenticationTests: XCTestCase {
    private var server: RedisServerProcess!
    private var connection: RedisConnection?

    override func setUpWithError() throws {
        server = try RedisServerProcess(password: "correct horse")
    }

    override func tearDown() {
        connection?.close()
        server?.stop()
    }

    private func start(_ url: String, states: StateLog? = nil) throws -> RedisConnection {
        let connection = try RedisConnection(configuration: RedisConfiguration(url: try RedisURL(parsing: url)), onStateChange: { states?.append($0) })
        self.connection = connection
        connection.start()
        return connection
    }


    private func refusal(of connection: RedisConnection) -> String {
        waitUntil("refused") { connection.state != .connecting }
        guard case .disconnected(let reason) = connection.state else { return "state \(connection.state)" }
        return reason
    }

    func testRightPasswordConnects() throws {
        let connection = try start("redis://:correct%20horse@127.0.0.1:\(server.port)")
        waitUntil("connected") { connection.state == .connected }
        XCTAssertEqual(try connection.reply(["PING"]), .simpleString("PONG"))
    }

    func testUserAndPasswordUseTwoArgumentAUTH() throws {
        let connection = try start("redis://default:correct%20horse@127.0.0.1:\(server.port)")
        waitUntil("connected") { connection.state == .connected }
    }

    func testWrongPasswordIsReportedWithRedisReasonOnce() throws {
        let states = StateLog()
        let connection = try start("redis://:wrong@127.0.0.1:\(server.port)", states: states)
        let reason = refusal(of: connection)
        XCTAssertTrue(reason.hasPrefix("Redis refused AUTH: WRONGPASS"), reason)
        let server = self.server!
        waitUntil("the client keeps retrying") { server.connectionsReceived >= 3 }
        // Retries keep the same reason, so a log of state changes says it once, not once per retry.
        XCTAssertEqual(states.all.count, 1, "\(states.all)")
    }

    func testMissingPasswordIsRefusedAtPING() throws {
        let connection = try start("redis://127.0.0.1:\(server.port)")
        let reason = refusal(of: connection)
        XCTAssertTrue(reason.hasPrefix("Redis refused PING: NOAUTH"), reason)
    }
}

/// TLS through NetCore's OpenSSL layer: `rediss://` to a redis-server serving TLS only.
final class RedisTLSTests: XCTestCase {
    func testRedissConnectsAndVerifiesTheServerCertificate() throws {
        let certificate = try SelfSignedCertificate(label: "redis-tls")
        defer { certificate.remove() }
        let server = try RedisServerProcess(tls: (certificate.certificatePath, certificate.keyPath))
        defer { server.stop() }
        var configuration = RedisConfiguration(url: try RedisURL(parsing: server.url))
        configuration.trustedCAFile = certificate.certificatePath
        let connection = try RedisConnection(configuration: configuration)
        defer { connection.close() }
        connection.start()
        waitUntil("connected over TLS", timeout: 5) { connection.state == .connected }
        XCTAssertEqual(try connection.reply(["ECHO", "sealed"]).string, "sealed")
    }

    func testUntrustedCertificateIsRefusedWithTheReason() throws {
        let certificate = try SelfSignedCertificate(label: "redis-tls")
        defer { certificate.remove() }
        let server = try RedisServerProcess(tls: (certificate.certificatePath, certificate.keyPath))
        defer { server.stop() }
        let connection = try RedisConnection(configuration: RedisConfiguration(url: try RedisURL(parsing: server.url)))
        defer { connection.close() }
        connection.start()
        waitUntil("refused") { connection.state != .connecting }
        guard case .disconnected(let reason) = connection.state else { return XCTFail("state \(connection.state)") }
        XCTAssertTrue(reason.contains("certificate verify failed"), reason)
    }
}

final class StateLog: Sendable {
    private let states = Locked<[RedisConnectionState]>([])
    func append(_ state: RedisConnectionState) { states.withLock { $0.append(state) } }
    var all: [RedisConnectionState] { states.withLock { $0 } }
}
