// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import NetCore

/// Finds and follows a Sentinel-managed primary, as the Sentinel client protocol asks:
/// every connection that names it in its `RedisConfiguration` asks it for the address before
/// each (re)connection (`SENTINEL get-master-addr-by-name` to the first sentinel that
/// answers, starting with the last one that did), and is told at once when the sentinels
/// announce `+switch-master` on their pub/sub (one subscription per sentinel, so one sentinel
/// down does not hide a switch), so it leaves the old primary within a round trip.
///
/// One per process, shared by all its Redis connections; they start it. When no sentinel
/// answers, the last address one gave is used (the primary usually outlives a sentinel).
/// Sentinels are reached without credentials; TLS when `usesTLS`.
public final class RedisSentinel: Sendable {
    public typealias Watcher = @Sendable (RedisAddress) -> Void

    public let masterName: String
    public let sentinels: [RedisAddress]
    private let configurations: [RedisConfiguration]

    private struct State {
        var commands: [RedisConnection] = []
        var subscriptions: [RedisConnection] = []
        var known: RedisAddress?
        /// The sentinel that answered last, asked first next time.
        var preferred = 0
        var watchers: [Int: Watcher] = [:]
        var nextWatcher = 0
        var started = false
        var closed = false
        /// The last `+switch-master` target.
        var announced: RedisAddress?
        var switches = 0
    }

    private let state = Locked(State())

    public init(masterName: String, sentinels: [RedisAddress], usesTLS: Bool = false, trustedCAFile: String? = nil) {
        self.masterName = masterName
        self.sentinels = sentinels
        configurations = sentinels.map { address in
            var configuration = RedisConfiguration(url: RedisURL(host: address.host, port: address.port, usesTLS: usesTLS))
            configuration.trustedCAFile = trustedCAFile
            configuration.requiresPrimary = false
            // A sentinel answers from memory: a slow one is skipped for the next rather than waited on.
            configuration.commandTimeout = .seconds(1)
            configuration.connectTimeout = .seconds(1)
            return configuration
        }
    }

    /// The primary's address as the sentinels last gave it; nil before the first answer.
    public var knownPrimary: RedisAddress? { state.withLock { $0.known } }

    /// Switches of this master announced so far (`+switch-master`, counted once however many sentinels tell).
    public var switchesSeen: Int { state.withLock { $0.switches } }

    /// e.g. `mymaster via 10.0.0.1:26379,10.0.0.2:26379`, for logs.
    public var summary: String { "\(masterName) via \(sentinels.map(\.description).joined(separator: ","))" }

    /// Connects to the sentinels (once); later calls do nothing. Throws when TLS cannot be set up.
    public func start() throws {
        let start = state.withLock { state -> Bool in
            defer { state.started = true }
            return !state.started && !state.closed
        }
        guard start else { return }
        var commands: [RedisConnection] = [], subscriptions: [RedisConnection] = []
        for configuration in configurations {
            commands.append(try RedisConnection(configuration: configuration))
            let relay = Locked<RedisConnection?>(nil)
            let subscription = try RedisConnection(
                configuration: configuration,
                // Subscriptions end with the connection: each (re)connection subscribes again.
                onStateChange: { state in
                    if state == .connected { relay.withLock { $0 }?.send(["SUBSCRIBE", "+switch-master"]) { _ in } }
                },
                onPush: { [weak self] message in self?.received(message) })
            relay.withLock { $0 = subscription }
            subscriptions.append(subscription)
        }
        state.withLock {
            $0.commands = commands
            $0.subscriptions = subscriptions
        }
        for connection in commands + subscriptions { connection.start() }
    }

    public func close() {
        let connections = state.withLock { state -> [RedisConnection] in
            state.closed = true
            state.watchers = [:]
            return state.commands + state.subscriptions
        }
        for connection in connections { connection.close() }
    }

    /// Calls `watcher` with the primary's new address whenever it changes; returns a token for `unwatch`.
    public func watch(_ watcher: @escaping Watcher) -> Int {
        state.withLock { state in
            defer { state.nextWatcher += 1 }
            state.watchers[state.nextWatcher] = watcher
            return state.nextWatcher
        }
    }

    public func unwatch(_ token: Int) {
        state.withLock { _ = $0.watchers.removeValue(forKey: token) }
    }

    /// Asks the sentinels where the primary is now: each in turn until one names it. Never waits for
    /// a sentinel to connect: one that is not connected is skipped.
    public func primary(_ completion: @escaping @Sendable (Result<RedisAddress, RedisError>) -> Void) {
        let (connections, preferred) = state.withLock { ($0.commands, $0.preferred) }
        guard !connections.isEmpty else {
            completion(.failure(.notConnected(reason: "sentinels for \(masterName) not started")))
            return
        }
        let order = (0..<connections.count).map { (preferred + $0) % connections.count }
        ask(order[...], connections, unknownName: false, completion)
    }

    private func ask(_ order: ArraySlice<Int>, _ connections: [RedisConnection], unknownName: Bool, _ completion: @escaping @Sendable (Result<RedisAddress, RedisError>) -> Void) {
        guard let index = order.first else {
            if let known = knownPrimary { return completion(.success(known)) }
            let reason = unknownName
                ? "the sentinels do not monitor a master named \(masterName)"
                : "no sentinel of \(sentinels.map(\.description).joined(separator: ",")) answered"
            return completion(.failure(.notConnected(reason: reason)))
        }
        connections[index].send(["SENTINEL", "get-master-addr-by-name", masterName]) { [self] result in
            guard case .success(let reply) = result else {
                return ask(order.dropFirst(), connections, unknownName: unknownName, completion)
            }
            guard let pair = reply.array, pair.count == 2, let host = pair[0].string, let port = pair[1].int else {
                return ask(order.dropFirst(), connections, unknownName: true, completion)
            }
            let address = RedisAddress(host: host, port: port)
            // Only remembered: an answer may be a sentinel's stale view during a failover, so only
            // `+switch-master` moves connections; a stale address fails ROLE and is asked again.
            state.withLock {
                $0.preferred = index
                $0.known = address
            }
            completion(.success(address))
        }
    }

    /// `+switch-master`'s message: `<master name> <old ip> <old port> <new ip> <new port>`.
    private func received(_ message: [RESPValue]) {
        guard message.count == 3, message[0].string == "message", message[1].string == "+switch-master",
              let fields = message[2].string?.split(separator: " "), fields.count == 5,
              fields[0] == masterName, let port = Int(fields[4]) else { return }
        let address = RedisAddress(host: String(fields[3]), port: port)
        // Every sentinel announces the same switch: the watchers hear it once.
        let watchers = state.withLock { state -> [Watcher] in
            guard state.announced != address else { return [] }
            state.switches += 1
            state.announced = address
            state.known = address
            return Array(state.watchers.values)
        }
        for watcher in watchers { watcher(address) }
    }
}
