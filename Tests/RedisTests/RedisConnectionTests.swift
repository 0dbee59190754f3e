import NetCore
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

    private func connect(
        _ urlText: String? = nil,
        configure: (inout RedisConfiguration) -> Void = { _ in },
        onStateChange: (@Sendable (RedisConnectionState) -> Void)? = nil
    ) throws -> RedisConnection {
        var configuration = RedisConfiguration(url: try RedisURL(parsing: urlText ?? server.url))
        configure(&configuration)
        let connection = try RedisConnection(configuration: configuration, onStateChange: onStateChange)
        connections.append(connection)
        connection.start()
        return connection
    }

    private func connected(_ connection: RedisConnection, within seconds: Double = 5) -> Bool {
        eventually(within: seconds) { connection.state == .connected }
    }

    func testSetThenGetReturnsTheValue() async throws {
        let connection = try connect()
        XCTAssertTrue(connected(connection))
        let set = try await connection.send(["SET", "greeting", "hello"])
        XCTAssertEqual(set, .simpleString("OK"))
        let get = try await connection.send(["GET", "greeting"])
        XCTAssertEqual(get.string, "hello")
    }

    func testPipelinedBatchRepliesInCommandOrder() async throws {
        let connection = try connect()
        XCTAssertTrue(connected(connection))
        let commands = (0..<2000).map { _ in ["INCR", "counter"] }
        let results = await withCheckedContinuation { continuation in
            connection.send(batch: commands) { continuation.resume(returning: $0) }
        }
        XCTAssertEqual(results.map { try? $0.get().int }, (1...2000).map { $0 })
    }

    func testErrorReplyIsAServerError() async throws {
        let connection = try connect()
        XCTAssertTrue(connected(connection))
        do {
            _ = try await connection.send(["NOSUCHCOMMAND"])
            XCTFail("expected an error reply")
        } catch RedisError.server(let message) {
            XCTAssertTrue(message.hasPrefix("ERR unknown command"), message)
        }
    }

    func testCommandWhileNotConnectedFailsAtOnce() async throws {
        let url = server.url
        server.stop()
        let connection = try connect(url)
        XCTAssertTrue(eventually { if case .disconnected = connection.state { true } else { false } })
        let started = ContinuousClock.now
        do {
            _ = try await connection.send(["PING"])
            XCTFail("expected notConnected")
        } catch RedisError.notConnected(let reason) {
            XCTAssertTrue(reason.contains("cannot connect to 127.0.0.1"), reason)
        }
        XCTAssertLessThan(ContinuousClock.now - started, .milliseconds(100))
    }

    func testSelectedDatabaseIsTheURLs() async throws {
        let connection = try connect(server.url + "/3")
        XCTAssertTrue(connected(connection))
        _ = try await connection.send(["SET", "where", "db3"])
        XCTAssertEqual(try server.cli(["-n", "3", "GET", "where"]), "db3\n")
        XCTAssertEqual(try server.cli(["-n", "0", "EXISTS", "where"]), "0\n")
    }

    func testDroppedConnectionReconnectsAndCountsIt() async throws {
        let connection = try connect()
        XCTAssertTrue(connected(connection))
        try server.cli(["CLIENT", "KILL", "TYPE", "normal"])
        XCTAssertTrue(eventually { connection.reconnects == 1 && connection.state == .connected })
        let pong = try await connection.send(["PING"])
        XCTAssertEqual(pong, .simpleString("PONG"))
    }

    func testRestartedServerIsReconnectedWithinOneSecond() throws {
        let connection = try connect()
        XCTAssertTrue(connected(connection))
        server.stop()
        XCTAssertTrue(eventually { connection.state != .connected })
        try server.restart()
        let back = ContinuousClock.now
        XCTAssertTrue(connected(connection, within: 1.5))
        XCTAssertLessThan(ContinuousClock.now - back, .seconds(1))
    }

    func testPausedServerTimesTheCommandOutThenRecoversAfterResume() async throws {
        let connection = try connect(configure: { $0.commandTimeout = .milliseconds(300); $0.connectTimeout = .milliseconds(300) })
        XCTAssertTrue(connected(connection))
        server.pause()
        let started = ContinuousClock.now
        do {
            _ = try await connection.send(["PING"])
            XCTFail("expected a timeout")
        } catch RedisError.timedOut(let after) {
            XCTAssertEqual(after, .milliseconds(300))
        }
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(1))
        XCTAssertNotEqual(connection.state, .connected)
        server.resume()
        XCTAssertTrue(connected(connection, within: 2))
        let pong = try await connection.send(["PING"])
        XCTAssertEqual(pong, .simpleString("PONG"))
    }

    func testCloseFailsWaitingCommandsAndStopsReconnecting() async throws {
        let connection = try connect()
        XCTAssertTrue(connected(connection))
        // BLOCK 0 waits forever, so the reply is still pending when close() runs.
        async let blocked = connection.send(["BLPOP", "never", "0"], timeout: .seconds(30))
        XCTAssertTrue(eventually { (try? self.server.cli(["CLIENT", "LIST"]).contains("cmd=blpop")) ?? false })
        connection.close()
        do {
            _ = try await blocked
            XCTFail("expected closed")
        } catch RedisError.closed {}
        XCTAssertTrue(eventually { connection.state == .closed })
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

    private func connectionsReceived() -> Int {
        let info = (try? server.cli(["INFO", "stats"])) ?? ""
        let line = info.split(whereSeparator: \.isNewline).first { $0.hasPrefix("total_connections_received:") }
        return line.flatMap { Int($0.split(separator: ":")[1]) } ?? 0
    }

    func testRightPasswordConnects() async throws {
        let connection = try start("redis://:correct%20horse@127.0.0.1:\(server.port)")
        XCTAssertTrue(eventually { connection.state == .connected })
        let pong = try await connection.send(["PING"])
        XCTAssertEqual(pong, .simpleString("PONG"))
    }

    func testUserAndPasswordUseTwoArgumentAUTH() throws {
        let connection = try start("redis://default:correct%20horse@127.0.0.1:\(server.port)")
        XCTAssertTrue(eventually { connection.state == .connected })
    }

    func testWrongPasswordIsReportedWithRedisReasonOnce() throws {
        let states = StateLog()
        let connection = try start("redis://:wrong@127.0.0.1:\(server.port)", states: states)
        XCTAssertTrue(eventually { connection.state != .connecting })
        guard case .disconnected(let reason) = connection.state else { return XCTFail("state \(connection.state)") }
        XCTAssertTrue(reason.hasPrefix("Redis refused AUTH: WRONGPASS"), reason)
        // Retries keep the same reason, so a log of state changes says it once, not once per retry.
        XCTAssertTrue(eventually { self.connectionsReceived() >= 3 }, "the client keeps retrying")
        XCTAssertEqual(states.all.filter { $0 != .connecting }.count, 1, "\(states.all)")
    }

    func testMissingPasswordIsRefusedAtPING() throws {
        let connection = try start("redis://127.0.0.1:\(server.port)")
        XCTAssertTrue(eventually { connection.state != .connecting })
        guard case .disconnected(let reason) = connection.state else { return XCTFail("state \(connection.state)") }
        XCTAssertTrue(reason.hasPrefix("Redis refused PING: NOAUTH"), reason)
    }
}

final class StateLog: Sendable {
    private let states = PThreadMutex<[RedisConnectionState]>([])
    func append(_ state: RedisConnectionState) { states.withLock { $0.append(state) } }
    var all: [RedisConnectionState] { states.withLock { $0 } }
}
