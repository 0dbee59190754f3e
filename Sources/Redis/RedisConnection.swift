// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Dispatch
import NetCore

/// One connection to Redis over NetCore's `ByteStream` (TLS for `rediss://`):
/// handshake with AUTH, SELECT and PING, pipelined commands answered in order,
/// a timeout per command, and reconnection with capped exponential backoff for
/// as long as it is not closed.
///
/// Commands never wait for a connection: sent while not connected, they fail at
/// once with `RedisError.notConnected`, so a caller serving an HTTP request is
/// never held up by Redis. Completions and `onStateChange` run on `loop`.
///
/// A blocking command (`XREAD BLOCK`) holds up every reply queued behind it, so
/// give blocking readers a connection of their own.
///
/// It serves the primary only (`requiresPrimary`): the handshake asks ROLE, and a node that is a
/// replica, or answers READONLY or UNBLOCKED later (it was demoted), is left at once, failing what waits with
/// `.connectionLost`, and the address is looked up again. With a `RedisSentinel` the address is
/// asked before every (re)connection, and a `+switch-master` moves the connection right away.
// @unchecked: mutable state is confined to `loop`'s serial queue; `snapshot` (read from any thread) is behind a mutex.
public final class RedisConnection: @unchecked Sendable {
    public typealias Completion = @Sendable (Result<RESPValue, RedisError>) -> Void

    private struct Pending {
        let completion: Completion
        let deadline: UInt64
        let timeout: Duration
    }

    private struct Snapshot {
        var state: RedisConnectionState = .connecting
        var reconnects = 0
        var address: RedisAddress?
        var failoversFollowed = 0
    }

    public let configuration: RedisConfiguration
    public let loop: EventLoop
    private let tls: TLSContext?
    private let snapshot = Locked(Snapshot())
    private let onStateChange: (@Sendable (RedisConnectionState) -> Void)?
    private let onPush: (@Sendable ([RESPValue]) -> Void)?

    // Loop-confined.
    private var stream: ByteStream?
    private var parser: RESPParser
    private var pending: [Pending] = []
    private var pendingHead = 0
    private var failedAttempts = 0
    private var everConnected = false
    private var isClosed = false
    private var isStarted = false
    private var generation = 0
    private var timeoutTimer: LoopTimer?
    private var reconnectTimer: LoopTimer?
    private var currentState: RedisConnectionState = .connecting
    private var handshakeRemaining = 0
    /// The address of the current (or last) attempt, and of the last connection that came up.
    private var dialed: RedisAddress?
    private var lastConnected: RedisAddress?
    private var sentinelWatch: Int?

    /// Pending replies are checked against their deadlines this often (so a timeout fires at most 50 ms late).
    private static let timeoutTick: DispatchTimeInterval = .milliseconds(50)

    public init(
        configuration: RedisConfiguration,
        loop: EventLoop = EventLoopGroup.shared.next(),
        onStateChange: (@Sendable (RedisConnectionState) -> Void)? = nil,
        onPush: (@Sendable ([RESPValue]) -> Void)? = nil
    ) throws {
        self.configuration = configuration
        self.loop = loop
        self.onStateChange = onStateChange
        self.onPush = onPush
        parser = RESPParser(limits: configuration.limits)
        tls = configuration.url.usesTLS ? try TLSContext(configuration: .client(trustedCAFile: configuration.trustedCAFile)) : nil
    }

    deinit {
        reconnectTimer?.cancel()
        timeoutTimer?.cancel()
        stream?.close()
    }

    public var state: RedisConnectionState { snapshot.withLock { $0.state } }

    /// Times a lost connection was established again.
    public var reconnects: Int { snapshot.withLock { $0.reconnects } }

    /// The address of the server it is (or was last) connected to.
    public var connectedAddress: RedisAddress? { snapshot.withLock { $0.address } }

    /// Times it came up at another address than the last time: a failover followed.
    public var failoversFollowed: Int { snapshot.withLock { $0.failoversFollowed } }

    /// Starts connecting; reconnects after every loss until `close()`.
    public func start() {
        loop.executeSoon { [self] in
            guard !isStarted, !isClosed else { return }
            isStarted = true
            if let sentinel = configuration.sentinel {
                // Already started by its owner, which reported a TLS failure; here it only makes sure.
                try? sentinel.start()
                sentinelWatch = sentinel.watch { [weak self] address in self?.primaryMoved(to: address) }
            }
            connect()
        }
    }

    /// Stops reconnecting, closes the socket and fails the commands awaiting replies with `.closed`.
    public func close() {
        loop.executeSoon { [self] in
            guard !isClosed else { return }
            isClosed = true
            if let sentinelWatch { configuration.sentinel?.unwatch(sentinelWatch) }
            reconnectTimer?.cancel()
            reconnectTimer = nil
            tearDownStream()
            setState(.closed)
            failPending(.closed)
        }
    }

    /// Sends one command; `completion` gets its reply, an error reply as `.server`, or why there is none.
    public func send(_ arguments: [String], timeout: Duration? = nil, completion: @escaping Completion) {
        loop.executeSoon { [self] in
            var bytes: [UInt8] = []
            RESPEncoder.command(arguments, into: &bytes)
            guard currentState == .connected, let stream else { completion(.failure(notConnectedError)); return }
            stream.write(bytes)
            enqueue(completion, timeout: timeout ?? configuration.commandTimeout)
        }
    }

    /// Sends `commands` in one write (pipelined); `completion` gets their results in order.
    public func send(batch commands: [[String]], timeout: Duration? = nil, completion: @escaping @Sendable ([Result<RESPValue, RedisError>]) -> Void) {
        loop.executeSoon { [self] in
            guard !commands.isEmpty else { completion([]); return }
            guard currentState == .connected, let stream else {
                completion(Array(repeating: .failure(notConnectedError), count: commands.count))
                return
            }
            var bytes: [UInt8] = []
            for command in commands { RESPEncoder.command(command, into: &bytes) }
            stream.write(bytes)
            let collector = BatchCollector(count: commands.count, completion: completion)
            for _ in commands {
                enqueue({ collector.add($0) }, timeout: timeout ?? configuration.commandTimeout)
            }
        }
    }

    public func send(_ arguments: [String], timeout: Duration? = nil) async throws -> RESPValue {
        try await withCheckedThrowingContinuation { continuation in
            send(arguments, timeout: timeout) { continuation.resume(with: $0) }
        }
    }

    // MARK: - Connecting

    private var notConnectedError: RedisError {
        switch currentState {
        case .disconnected(let reason): .notConnected(reason: reason)
        case .closed: .closed
        default: .notConnected(reason: "connecting to \(dialed.map(String.init(describing:)) ?? configuration.target)")
        }
    }

    private func connect() {
        guard !isClosed else { return }
        generation += 1
        let attempt = generation
        guard let sentinel = configuration.sentinel else {
            return dial(RedisAddress(host: configuration.url.host, port: configuration.url.port), attempt: attempt)
        }
        sentinel.primary { [weak self] result in
            guard let self else { return }
            loop.executeSoon { [self] in
                guard attempt == generation, !isClosed else { return }
                switch result {
                case .success(let address): dial(address, attempt: attempt)
                case .failure(.notConnected(let reason)): lost("no primary for \(sentinel.masterName): \(reason)")
                case .failure(let error): lost("no primary for \(sentinel.masterName): \(error)")
                }
            }
        }
    }

    private func dial(_ address: RedisAddress, attempt: Int) {
        dialed = address
        ByteStreamConnector.connect(host: address.host, port: address.port, tls: tls, timeout: configuration.connectTimeout, loop: loop) { [weak self] result in
            guard let self, attempt == self.generation, !self.isClosed else {
                if case .success(let stream) = result { stream.close() }
                return
            }
            switch result {
            case .success(let stream): attach(stream)
            // A name that does not resolve says so, once, naming the host itself.
            case .failure(let error as ResolutionError): lost(error.description)
            case .failure(let error): lost("cannot connect to \(address): \(error)")
            }
        }
    }

    /// The sentinels announced a new primary: leave the old one and connect now, not after a backoff.
    private func primaryMoved(to address: RedisAddress) {
        loop.executeSoon { [self] in
            guard isStarted, !isClosed else { return }
            // Already on it, or on the way (dialling or handshaking).
            if dialed == address, reconnectTimer == nil { return }
            if stream != nil { lost("the primary moved to \(address) (+switch-master)") }
            reconnectTimer?.cancel()
            reconnectTimer = nil
            failedAttempts = 0
            connect()
        }
    }

    private func attach(_ stream: ByteStream) {
        self.stream = stream
        parser = RESPParser(limits: configuration.limits)
        stream.onRead = { [weak self] bytes in self?.received(bytes) }
        stream.onClose = { [weak self] reason in
            let text = switch reason {
            case .local: "closed"
            case .peerClosed: "Redis closed the connection"
            case .failed(let message): message
            }
            self?.lost(text)
        }
        let timer = loop.makeTimer()
        timer.schedule(deadline: .now() + Self.timeoutTick, repeating: Self.timeoutTick)
        timer.setEventHandler { [weak self] in self?.checkDeadlines() }
        timer.resume()
        timeoutTimer = timer
        handshake(on: stream)
    }

    /// AUTH (when the URL has a password), SELECT (database ≠ 0), PING and ROLE (`requiresPrimary`),
    /// pipelined; connected once all are answered and the node is not a replica. A ROLE refused
    /// (an ACL without it) trusts the address.
    private func handshake(on stream: ByteStream) {
        let url = configuration.url
        var commands: [[String]] = []
        if let password = url.password { commands.append(url.user.map { ["AUTH", $0, password] } ?? ["AUTH", password]) }
        if url.database != 0 { commands.append(["SELECT", String(url.database)]) }
        commands.append(["PING"])
        if configuration.requiresPrimary { commands.append(["ROLE"]) }
        var bytes: [UInt8] = []
        for command in commands { RESPEncoder.command(command, into: &bytes) }
        stream.write(bytes)
        handshakeRemaining = commands.count
        for command in commands {
            enqueue({ [weak self] result in
                guard let self, self.stream === stream else { return }
                switch result {
                case .success(let reply):
                    if command[0] == "ROLE", let role = reply.array?.first?.string, role != "master" {
                        return lost("\(dialed.map(String.init(describing:)) ?? "the node") is a \(role), not the primary")
                    }
                    handshakeRemaining -= 1
                    if handshakeRemaining == 0 { handshakeDone() }
                case .failure(.server) where command[0] == "ROLE":
                    handshakeRemaining -= 1
                    if handshakeRemaining == 0 { handshakeDone() }
                case .failure(.server(let message)):
                    lost("Redis refused \(command[0]): \(message)")
                case .failure:
                    break // the connection is already being torn down
                }
            }, timeout: configuration.connectTimeout)
        }
    }

    private func handshakeDone() {
        failedAttempts = 0
        let moved = lastConnected != nil && lastConnected != dialed
        lastConnected = dialed
        snapshot.withLock {
            if everConnected { $0.reconnects += 1 }
            if moved { $0.failoversFollowed += 1 }
            $0.address = dialed
        }
        everConnected = true
        setState(.connected)
    }

    /// The connection failed or was refused: fail what waits, tell, and try again after a backoff.
    private func lost(_ reason: String, failingWith error: RedisError? = nil) {
        guard !isClosed else { return }
        tearDownStream()
        // State first: a caller woken by the failure already sees the connection as down.
        setState(.disconnected(reason: reason))
        failPending(error ?? .connectionLost(reason))
        let delay = configuration.backoff(attempt: failedAttempts)
        failedAttempts += 1
        reconnectTimer?.cancel()
        let timer = loop.makeTimer()
        timer.schedule(deadline: .now() + delay.dispatchInterval)
        timer.setEventHandler { [weak self] in
            self?.reconnectTimer = nil
            self?.connect()
        }
        timer.resume()
        reconnectTimer = timer
    }

    private func tearDownStream() {
        generation += 1
        timeoutTimer?.cancel()
        timeoutTimer = nil
        guard let stream else { return }
        self.stream = nil
        stream.onClose = nil
        stream.close()
    }

    private func setState(_ state: RedisConnectionState) {
        guard state != currentState else { return }
        currentState = state
        snapshot.withLock { $0.state = state }
        onStateChange?(state)
    }

    // MARK: - Replies

    private func enqueue(_ completion: @escaping Completion, timeout: Duration) {
        let deadline = DispatchTime.now().uptimeNanoseconds + timeout.nanoseconds
        pending.append(Pending(completion: completion, deadline: deadline, timeout: timeout))
    }

    private func received(_ bytes: UnsafeRawBufferPointer) {
        var outputs: [RESPParser.Output] = []
        parser.feed(bytes) { outputs.append($0) }
        let current = stream
        for output in outputs {
            guard stream === current, current != nil else { return }
            switch output {
            case .value(let value): reply(value)
            case .failure(let error): lost(error.description)
            }
        }
    }

    private func reply(_ value: RESPValue) {
        if let onPush, case .array(let items) = value, let kind = items.first?.string, kind == "message" || kind == "pmessage" {
            return onPush(items)
        }
        if configuration.requiresPrimary, case .error(let message) = value, let word = Self.demotionWord(message) {
            // A demoted primary: what waits fails as lost (so it is sent again), not as refused.
            return lost("\(dialed.map(String.init(describing:)) ?? "the node") answered \(word): it is a replica now")
        }
        guard pendingHead < pending.count else { lost("reply without a command: \(value)"); return }
        let entry = pending[pendingHead]
        pendingHead += 1
        if pendingHead == pending.count {
            pending.removeAll(keepingCapacity: pending.capacity <= 1024)
            pendingHead = 0
        } else if pendingHead > 1024, pendingHead * 2 > pending.count {
            pending.removeFirst(pendingHead)
            pendingHead = 0
        }
        if case .error(let message) = value {
            entry.completion(.failure(.server(message)))
        } else {
            entry.completion(.success(value))
        }
    }

    /// The error a primary's demotion shows as: READONLY to a write, UNBLOCKED to a blocked read (an
    /// XREAD BLOCK is ended so when its node becomes a replica, which would otherwise answer the
    /// next read from a replica's copy). Nil for any other error.
    static func demotionWord(_ message: String) -> String? {
        ["READONLY", "UNBLOCKED"].first { message.hasPrefix($0) }
    }

    private func checkDeadlines() {
        let now = DispatchTime.now().uptimeNanoseconds
        guard let expired = pending[pendingHead...].first(where: { $0.deadline <= now }) else { return }
        lost("no reply within \(expired.timeout)", failingWith: .timedOut(after: expired.timeout))
    }

    private func failPending(_ error: RedisError) {
        let failed = pending[pendingHead...]
        pending = []
        pendingHead = 0
        for entry in failed { entry.completion(.failure(error)) }
    }
}
