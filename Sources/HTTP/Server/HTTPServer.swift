// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Dispatch
import NetCore
import Synchronization

/// The HTTP/1.1 and HTTP/2 server: a listener that accepts in bursts and spreads connections
/// over a few event loops (``HTTPServerConfiguration/loopCount``); each connection lives on one
/// loop, driven by its readiness events, never a thread of its own. Every request goes to the
/// ``Router``; what it answers, and every error the server answers itself, goes to the
/// ``HTTPServerObserver`` and ``HTTPMetrics``.
///
/// ```swift
/// var router = Router()
/// router.get("/hello") { _ in .just(.text("hi")) }
/// let server = HTTPServer(configuration: .init(host: "127.0.0.1", port: 0), router: router)
/// let port = try server.start()
/// …
/// await server.shutdown(deadline: .seconds(10))
/// ```
public final class HTTPServer: Sendable {
    /// The configuration the server was made with.
    public let configuration: HTTPServerConfiguration
    private let router: Router
    private let observer: HTTPServerObserver
    private let group: EventLoopGroup
    private let sets: [ConnectionSet]
    private let state = Locked(State())
    private let open = Atomic<Int>(0)
    /// Serialises count changes with their callback, so observers never see counts out of order.
    private let countChanges = Locked<Int>(0)
    private let cursor = Atomic<Int>(0)
    private let perClient = ConnectionsPerClient()

    private struct State {
        var listeners: [Listener] = []
        var context: ServerContext?
        var shutdownWaiters: [@Sendable () -> Void] = []
        var shutdownStarted = false
        /// From the deadline on, `finish` waits for the deadline's report rather than the last close.
        var deadlinePassed = false
        var finished = false
    }

    /// `metrics` records every request and the open-connection count (through the
    /// bootstrapped `MetricsSystem` unless given another factory); `observer` sees them too.
    public init(
        configuration: HTTPServerConfiguration, router: Router, observer: HTTPServerObserver = HTTPServerObserver(),
        metrics: HTTPMetrics = HTTPMetrics()
    ) {
        self.configuration = configuration
        self.router = router
        self.observer = observer.recording(into: metrics)
        group = EventLoopGroup(count: configuration.loopCount, label: "http.loop")
        sets = group.loops.map { ConnectionSet(loop: $0) }
    }

    /// A server sending every request to `handler`.
    public convenience init(configuration: HTTPServerConfiguration, observer: HTTPServerObserver = HTTPServerObserver(), handler: @escaping RequestHandler) {
        self.init(configuration: configuration, router: Router(handler: handler), observer: observer)
    }

    /// Binds, listens and starts serving. Returns the bound port (useful with port 0).
    /// Throws for an unusable address or port in use, or unreadable TLS files.
    @discardableResult
    public func start() throws -> Int {
        let tls = try configuration.tls.map { try TLSContext(configuration: Self.offeringHTTP2($0, enabled: configuration.http2Enabled)) }
        let context = ServerContext(configuration: configuration, router: router, observer: observer, tls: tls)
        let listeners = try makeListeners()
        state.withLock {
            $0.listeners = listeners
            $0.context = context
        }
        let timeouts = configuration.timeouts
        let shortest = min(timeouts.header, timeouts.idle, timeouts.write, timeouts.body)
        let sweep = min(max(shortest / 8, .milliseconds(5)), .milliseconds(250))
        for set in sets { set.loop.execute { set.startSweeping(every: sweep) } }
        for listener in listeners { listener.start() }
        return listeners[0].port
    }

    /// One listener on the first loop, or with `reusePort` one per loop, all on the first one's port.
    private func makeListeners() throws -> [Listener] {
        let reusePort = configuration.acceptBalancing == .reusePort && sets.count > 1
        var listeners: [Listener] = []
        for set in reusePort ? sets : [sets[0]] {
            let port = listeners.first?.port ?? configuration.port
            do {
                listeners.append(try Listener(
                    host: configuration.host, port: port, backlog: configuration.backlog, reusePort: reusePort, loop: set.loop,
                    onPause: { [observer] pause in observer.acceptPauseChanged?(pause) }
                ) { [weak self] socket, address in
                    self?.accepted(socket, from: address, onto: reusePort ? set : nil)
                })
            } catch {
                for listener in listeners { listener.stop() }
                throw error
            }
        }
        return listeners
    }

    /// The bound port once started.
    public var port: Int? { state.withLock { $0.listeners.first?.port } }

    /// Connections currently open.
    public var openConnections: Int { open.load(ordering: .relaxed) }

    /// True from the moment `shutdown` is called (e.g. for a `/ready` that turns 503).
    public var isShuttingDown: Bool { state.withLock { $0.shutdownStarted } }

    /// Graceful shutdown: stop accepting, let in-flight requests finish, end
    /// streamed responses (writing their `shutdownTrailer`), close idle
    /// connections. `completion` runs once every connection is gone, or at
    /// `deadline`, when the rest are closed forcibly.
    public func shutdown(deadline: Duration, completion: @escaping @Sendable () -> Void) {
        let (listeners, context, first) = state.withLock { state -> ([Listener], ServerContext?, Bool) in
            state.shutdownWaiters.append(completion)
            let first = !state.shutdownStarted
            state.shutdownStarted = true
            return (state.listeners, state.context, first)
        }
        guard first else { finishIfDrained(); return }
        context?.beginShuttingDown()
        let stopped: @Sendable () -> Void = { [self] in
            for set in sets { set.loop.execute { set.beginShutdown() } }
            finishIfDrained()
        }
        if listeners.isEmpty {
            stopped()
        } else {
            let remaining = Atomic<Int>(listeners.count)
            for listener in listeners {
                listener.stop { if remaining.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { stopped() } }
            }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(deadline.nanoseconds))) { [self] in
            let proceed = state.withLock { state -> Bool in
                guard !state.finished else { return false }
                state.deadlinePassed = true
                return true
            }
            guard proceed else { return }
            let remaining = DispatchGroup()
            let report = Locked(ShutdownDeadline())
            for set in sets {
                remaining.enter()
                set.loop.execute {
                    let closed = set.closeAll()
                    report.withLock { $0.add(closed) }
                    remaining.leave()
                }
            }
            remaining.notify(queue: .global()) { [self] in
                observer.shutdownDeadlineReached?(report.withLock { $0 })
                finish()
            }
        }
    }

    /// Graceful shutdown; returns once every connection is closed or the deadline passed.
    public func shutdown(deadline: Duration) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            shutdown(deadline: deadline) { continuation.resume() }
        }
    }

    /// On the accepting loop; `loop` is that loop's set when each loop accepts its own (`reusePort`).
    private func accepted(_ socket: Socket, from address: SocketAddress, onto loop: ConnectionSet?) {
        guard let context = state.withLock({ $0.shutdownStarted ? nil : $0.context }) else {
            socket.close()
            return
        }
        if open.load(ordering: .relaxed) >= configuration.limits.maxConnections {
            let limit = configuration.limits.maxConnections
            refuse(socket, from: address, .tooManyConnections,
                   detail: "Too many connections: the server holds its limit of \(limit) at once; retry after \(Self.connectionRetryAfterSeconds) s",
                   writer: context.writer)
            return
        }
        let client = configuration.limits.maxConnectionsPerClient.map { _ in configuration.perClientConnectionKey.key(address) }
        if let client, let limit = configuration.limits.maxConnectionsPerClient, !perClient.admit(client, limit: limit) {
            refuse(socket, from: address, .tooManyConnectionsPerClient,
                   detail: "Too many connections from this client (at most \(limit) at once); retry after \(Self.connectionRetryAfterSeconds) s",
                   writer: context.writer)
            return
        }
        changeOpenCount(by: 1)
        let target = loop ?? sets[Int(cursor.wrappingAdd(1, ordering: .relaxed).oldValue.magnitude % UInt(sets.count))]
        let remote = address.description, peer = IPAddress(address)
        // On the listener's own loop the connection starts at once; elsewhere on that loop's next turn.
        target.loop.executeSoon { [self] in
            let tlsSession: TLSSession?
            do { tlsSession = try context.tls.map { try TLSSession(context: $0) } } catch {
                socket.close()
                connectionClosed(client: client)
                return
            }
            let stream = ByteStream(socket: socket, loop: target.loop, remoteAddress: remote, peerAddress: peer, tls: tlsSession)
            let connection = ServerConnection(stream: stream, context: context, scheduler: target.scheduler, date: target.date)
            target.adopt(connection) { [self] in connectionClosed(client: client) }
        }
    }

    private func connectionClosed(client: String?) {
        if let client { perClient.release(client) }
        if changeOpenCount(by: -1) == 0 { finishIfDrained() }
    }

    @discardableResult
    private func changeOpenCount(by delta: Int) -> Int {
        countChanges.withLock { count in
            count += delta
            open.store(count, ordering: .relaxed)
            observer.connectionsChanged?(count)
            return count
        }
    }

    private func finishIfDrained() {
        let (started, deadlinePassed, finished) = state.withLock { ($0.shutdownStarted, $0.deadlinePassed, $0.finished) }
        // Once finished, a later `shutdown` call completes at once.
        guard finished || (started && !deadlinePassed && open.load(ordering: .relaxed) == 0) else { return }
        finish()
    }

    private func finish() {
        let waiters = state.withLock { state -> [@Sendable () -> Void] in
            let waiters = state.shutdownWaiters
            state.shutdownWaiters = []
            if !state.finished {
                state.finished = true
                for set in sets { set.loop.execute { set.stopSweeping() } }
            }
            return waiters
        }
        for waiter in waiters { waiter() }
    }

    /// `Retry-After` of a connection-limit 503: a slot frees as soon as any connection closes,
    /// which a server under churn sees within a second; longer would idle a slot, shorter is
    /// not expressible (the field counts whole seconds).
    static let connectionRetryAfterSeconds = 1

    /// Over a connection limit: a best-effort 503 without reading the request, then close.
    private func refuse(_ socket: Socket, from address: SocketAddress, _ reason: Rejection.Reason, detail: String, writer: ResponseWriter) {
        var bytes = writer.closingProblem(.serviceUnavailable, detail: detail, retryAfterSeconds: Self.connectionRetryAfterSeconds)
        bytes.withUnsafeMutableBytes { _ = socket.write(UnsafeRawBufferPointer($0)) }
        socket.close()
        observer.requestRejected?(Rejection(
            status: HTTPStatus.serviceUnavailable.code, reason: reason, detail: detail, remoteAddress: address.description))
    }

    /// With HTTP/2 on, ALPN offers `h2` before the configured protocols (RFC 9113 §3.2).
    static func offeringHTTP2(_ tls: TLSConfiguration, enabled: Bool) -> TLSConfiguration {
        guard enabled, tls.isServer, !tls.alpnProtocols.isEmpty, !tls.alpnProtocols.contains("h2") else { return tls }
        var tls = tls
        tls.alpnProtocols.insert("h2", at: 0)
        return tls
    }
}
