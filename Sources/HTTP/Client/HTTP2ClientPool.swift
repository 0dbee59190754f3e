// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import NetCore
import Streams

/// HTTP/2 connections per origin: one, carrying up to the peer's SETTINGS_MAX_CONCURRENT_STREAMS,
/// and another only when that is reached. Requests that find no stream free wait for the connection
/// being opened (one connect at a time per origin, so a burst of sixteen requests to a cold origin
/// is one TCP and TLS handshake, not sixteen). Over TLS the first connection learns by ALPN whether the
/// origin speaks HTTP/2; one that picks `http/1.1` (or nothing) sends its requests, then and from then
/// on, to the pooled HTTP/1.1 client.
// @unchecked: `entries` is only touched inside `withEntries`, under `lock`; the rest is immutable.
final class HTTP2ClientPool: @unchecked Sendable {
    fileprivate struct Slot {
        let connection: HTTP2ClientConnection
        /// Streams given to the connection (open, or about to be opened on its loop).
        var reserved = 0
        /// The peer's SETTINGS_MAX_CONCURRENT_STREAMS (100, RFC 9113's recommended floor, until it says).
        var capacity = 100
        /// False after a GOAWAY: the connection finishes its streams and takes no new one.
        var accepting = true
    }

    fileprivate struct Entry {
        /// The origin chose HTTP/1.1 by ALPN.
        var speaksHTTP1 = false
        var slots: [Slot] = []
        var connecting = false
        var waiting: [HTTP2ClientExchange] = []
    }

    /// The entries by origin: a handful (a service's upstream origins), found by a scan comparing
    /// each origin's precomputed hash first. A dictionary hashed that hash again and went through
    /// its `modify` accessor two or three times an exchange, about 1,000 instructions (the figure:
    /// Benchmarks/README.md). Entries are never removed, so an origin keeps its place.
    fileprivate struct Entries {
        private var origins: [ConnectionPool.Origin] = []
        private var entries: [Entry] = []

        /// `body` on `origin`'s entry where it lies, an empty one made first when there is none.
        mutating func with<Result>(_ origin: ConnectionPool.Origin, _ body: (inout Entry) -> Result) -> Result {
            if let index = origins.firstIndex(of: origin) { return body(&entries[index]) }
            origins.append(origin)
            entries.append(Entry())
            return body(&entries[entries.count - 1])
        }

        /// `body` on the entry of `request`'s origin, found by the request's parts: an `Origin`
        /// made per exchange (its host copied and hashed) cost about 140 instructions, where a
        /// host compares with an entry's as two words when it is the same small string.
        mutating func with<Result>(_ request: HTTPClientRequest, _ body: (inout Entry) -> Result) -> Result {
            let secure = request.isSecure, host = request.host, port = request.port
            if let index = origins.firstIndex(where: { $0.port == port && $0.secure == secure && $0.host == host }) {
                return body(&entries[index])
            }
            return with(ConnectionPool.Origin(secure: secure, host: host, port: port), body)
        }

        /// `body` on `origin`'s entry where it lies; nil when there is none.
        mutating func ifPresent<Result>(_ origin: ConnectionPool.Origin, _ body: (inout Entry) -> Result) -> Result? {
            guard let index = origins.firstIndex(of: origin) else { return nil }
            return body(&entries[index])
        }

        /// Where `origin`'s entry lies, an empty one made first when there is none: the place a
        /// connection keeps (`HTTP2ClientConnection.poolEntry`), as entries are never removed.
        mutating func index(of origin: ConnectionPool.Origin) -> Int {
            with(origin) { _ in }
            return origins.firstIndex(of: origin)!
        }

        /// `body` on the entry at `index` (from `index(of:)`): the fast twin of `ifPresent`, with no
        /// scan comparing origins.
        mutating func at<Result>(_ index: Int, _ body: (inout Entry) -> Result) -> Result {
            body(&entries[index])
        }

        /// The origin of the entry at `index`: for tests, that the two ways find the same entry.
        func origin(at index: Int) -> ConnectionPool.Origin { origins[index] }

        var all: [Entry] { entries }
    }

    enum Route {
        case stream(HTTP2ClientConnection)
        case http1
        case wait
        case connect
    }

    // A spin lock and the entries inline, as HTTP2ClientExchange keeps its state, not a `Locked`:
    // the pool is locked twice an exchange (its route, its stream's end), and a pthread mutex's lock
    // and unlock cost about 57 instructions a time (the figure: Benchmarks/README.md). Held for a
    // scan of a handful of entries; a client's loops contend for it now and then.
    private let lock = SpinLock()
    @exclusivity(unchecked) private var entries = Entries()

    /// Runs `body` with exclusive access to the entries; `body` calls out to nothing.
    @inline(__always)
    private func withEntries<Result>(_ body: (inout Entries) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&entries)
    }
    let settings: HTTP2ClientSettings
    let tls: TLSContext?
    let tlsFailure: String?
    let connectTimeout: Duration
    let connectTargets: [ConnectTarget]
    let loops: EventLoopGroup
    init(settings: HTTP2ClientSettings, tls: TLSContext?, tlsFailure: String?, connectTimeout: Duration, connectTargets: [ConnectTarget],
         loops: EventLoopGroup) {
        self.settings = settings
        self.tls = tls
        self.tlsFailure = tlsFailure
        self.connectTimeout = connectTimeout
        self.connectTargets = connectTargets
        self.loops = loops
    }

    /// Whether `request` goes this way: https unless HTTP/2 is off, http with prior knowledge only.
    func carries(_ request: HTTPClientRequest) -> Bool {
        request.isSecure ? settings.mode != .off : settings.mode == .priorKnowledge
    }

    func send(_ exchange: HTTP2ClientExchange) {
        let route = withEntries { entries in
            entries.with(exchange.request) { $0.route(exchange) }
        }
        switch route {
        case .stream(let connection): connection.run(exchange)
        case .http1: exchange.sendOverHTTP1()
        case .wait: break
        case .connect: connect(exchange.origin, near: exchange.home)
        }
    }

    /// Opens (and keeps open with PING) a connection to `origin` before any request needs it.
    func warm(_ origin: ConnectionPool.Origin) {
        let start = withEntries { entries -> Bool in
            entries.with(origin) { entry in
                guard !entry.speaksHTTP1, !entry.connecting, entry.slots.isEmpty else { return false }
                entry.connecting = true
                return true
            }
        }
        if start { connect(origin, near: nil) }
    }

    func leaveQueue(_ exchange: HTTP2ClientExchange) {
        withEntries { entries in _ = entries.ifPresent(exchange.origin) { $0.waiting.removeAll { $0 === exchange } } }
    }

    /// Connections open to `origin` (HTTP/2 ones, draining or not).
    func connectionCount(_ origin: ConnectionPool.Origin) -> Int {
        withEntries { $0.ifPresent(origin) { $0.slots.count } ?? 0 }
    }

    /// The client is going: every connection sends GOAWAY and closes.
    func shutdown() {
        let connections = withEntries { entries in entries.all.flatMap { $0.slots.map(\.connection) } }
        for connection in connections { connection.shutdown() }
    }

    // MARK: - Connecting

    private func connect(_ origin: ConnectionPool.Origin, near home: EventLoop?) {
        if origin.secure && tls == nil {
            return failWaiting(origin, .connection("TLS is unavailable: \(tlsFailure ?? "no context")"))
        }
        let address = connectTargets.address(host: origin.host, port: origin.port)
        ByteStreamConnector.connect(
            host: address.host, port: address.port, tls: origin.secure ? tls : nil, timeout: connectTimeout, loop: home ?? loops.next()
        ) { [self] result in
            switch result {
            case .failure(let error):
                failWaiting(origin, .connection(String(describing: error)))
            case .success(let stream):
                // Over TLS the origin says by ALPN; in cleartext this is prior knowledge.
                if origin.secure && stream.applicationProtocol != "h2" {
                    stream.close()
                    speaksHTTP1(origin)
                } else {
                    let entry = withEntries { $0.index(of: origin) }
                    let connection = HTTP2ClientConnection(stream: stream, origin: origin, poolEntry: entry, pool: self)
                    connection.start()
                    connected(connection)
                }
            }
        }
    }

    private func connected(_ connection: HTTP2ClientConnection) {
        let (granted, more) = withEntries { entries in
            entries.with(connection.origin) { entry -> ([HTTP2ClientExchange], Bool) in
                entry.connecting = false
                entry.slots.append(Slot(connection: connection))
                let granted = entry.grant(to: entry.slots.count - 1)
                entry.connecting = !entry.waiting.isEmpty
                return (granted, entry.connecting)
            }
        }
        for exchange in granted { connection.run(exchange) }
        if more { connect(connection.origin, near: connection.loop) }
    }

    private func speaksHTTP1(_ origin: ConnectionPool.Origin) {
        let waiting = withEntries { entries in
            entries.with(origin) { entry -> [HTTP2ClientExchange] in
                entry.speaksHTTP1 = true
                entry.connecting = false
                defer { entry.waiting = [] }
                return entry.waiting
            }
        }
        for exchange in waiting { exchange.sendOverHTTP1() }
    }

    private func failWaiting(_ origin: ConnectionPool.Origin, _ error: HTTPClientError) {
        let waiting = withEntries { entries in
            entries.with(origin) { entry -> [HTTP2ClientExchange] in
                entry.connecting = false
                defer { entry.waiting = [] }
                return entry.waiting
            }
        }
        for exchange in waiting { exchange.finish(.failure(error)) }
    }

    // MARK: - What connections report

    /// A stream of `connection` ended: a waiting request may take its place.
    func streamEnded(on connection: HTTP2ClientConnection) {
        let granted = update(connection) { entry, index in
            entry.slots[index].reserved -= 1
            return entry.grant(to: index)
        }
        for exchange in granted ?? [] { connection.run(exchange) }
    }

    /// The peer's SETTINGS_MAX_CONCURRENT_STREAMS.
    func capacityChanged(of connection: HTTP2ClientConnection, to capacity: Int) {
        let granted = update(connection) { entry, index in
            entry.slots[index].capacity = capacity
            return entry.grant(to: index)
        }
        for exchange in granted ?? [] { connection.run(exchange) }
    }

    /// GOAWAY received, or the connection closed: no new stream goes there. Requests still waiting
    /// need another connection.
    func retire(_ connection: HTTP2ClientConnection, closed: Bool) {
        let reconnect = update(connection) { entry, index -> Bool in
            if closed { entry.slots.remove(at: index) } else { entry.slots[index].accepting = false }
            let reconnect = !entry.waiting.isEmpty && !entry.connecting
            if reconnect { entry.connecting = true }
            return reconnect
        } ?? false
        if reconnect { connect(connection.origin, near: connection.loop) }
    }

    /// `body` on `connection`'s entry and slot index, changed where it lies: an entry copied out
    /// and written back copied its slots array at every stream's end (the figure: Benchmarks/README.md).
    /// The entry is the one at the connection's `poolEntry`, not found by comparing origins (about
    /// 80 instructions a stream's end); `entryIndex(of:)` and `HTTP2ClientPoolEntryTests` check
    /// the two ways agree.
    private func update<Result>(_ connection: HTTP2ClientConnection, _ body: (inout Entry, Int) -> Result) -> Result? {
        withEntries { entries in
            entries.at(connection.poolEntry) { entry -> Result? in
                guard let index = entry.slots.firstIndex(where: { $0.connection === connection }) else { return nil }
                return body(&entry, index)
            }
        }
    }

    /// The place of `origin`'s entry (made when there is none), as a connection to it keeps it.
    func entryIndex(of origin: ConnectionPool.Origin) -> Int {
        withEntries { $0.index(of: origin) }
    }

    /// The origin of the entry at `index`, found the slow way's table: for tests.
    func origin(ofEntry index: Int) -> ConnectionPool.Origin {
        withEntries { $0.origin(at: index) }
    }
}

extension HTTP2ClientPool.Entry {
    /// Where a new request goes: a connection with a stream free, HTTP/1.1, or the queue (opening a
    /// connection when none is being opened).
    fileprivate mutating func route(_ exchange: HTTP2ClientExchange) -> HTTP2ClientPool.Route {
        if speaksHTTP1 { return .http1 }
        if let index = slots.firstIndex(where: { $0.accepting && $0.reserved < $0.capacity }) {
            slots[index].reserved += 1
            return .stream(slots[index].connection)
        }
        waiting.append(exchange)
        if connecting { return .wait }
        connecting = true
        return .connect
    }

    /// The waiting requests slot `index` takes now, oldest first.
    fileprivate mutating func grant(to index: Int) -> [HTTP2ClientExchange] {
        guard slots[index].accepting else { return [] }
        let count = min(waiting.count, max(0, slots[index].capacity - slots[index].reserved))
        guard count > 0 else { return [] }
        slots[index].reserved += count
        defer { waiting.removeFirst(count) }
        return Array(waiting.prefix(count))
    }

}
