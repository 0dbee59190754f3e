// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import NetCore
import Streams

/// Connections per origin (scheme, host, port): at most `maxPerOrigin` open at once,
/// counting those in use, connecting and idle. Idle keep-alive connections are reused
/// most-recently-idle first; a request that finds none idle and the origin at its cap
/// waits, first come first served, for a connection to be checked in or closed.
///
/// Without the cap a burst of requests opens a connection each, hundreds at once.
///
/// Each open connection holds one *slot*. A slot passes, with its connection or in
/// place of a closed one, to the next waiter, and is freed only when nobody waits.
///
/// Loop affinity: a request made on an event loop (a server route calling upstream) takes
/// an idle connection of that same loop when there is one, or opens one there while the
/// origin is below its cap; a waiter gets a connection of its own loop before older waiters
/// of other loops, within a bound (`LoopWaiters`). The exchange then runs
/// where its caller runs: no wake-up of another loop's thread, no lock handed between threads, and
/// no memory freed on another thread's malloc arena.
// @unchecked: `state` is only touched inside `withState`, under `lock`; the rest is immutable.
final class ConnectionPool: @unchecked Sendable {
    /// What a request gets: an idle connection (its slot included), a slot to connect
    /// with, or a place in the queue (`Grant` arrives later through its callback).
    enum Lease {
        case reuse(ByteStream)
        case connect
        case wait(WaiterID)
    }

    enum Grant {
        case reuse(ByteStream)
        case connect
    }

    struct WaiterID: Hashable, Sendable {
        fileprivate let value: UInt64
    }

    private struct Waiter {
        let id: WaiterID
        let granted: @Sendable (Grant) -> Void
    }

    private struct OriginState {
        var open = 0
        var idle: [ByteStream] = []
        var waiters = LoopWaiters<Waiter>(maxOvertaken: ConnectionPool.maxOvertaken)

        /// An idle connection of `loop` (of any loop when `loop` is nil, or when `anyLoop`).
        mutating func takeIdle(near loop: ObjectIdentifier?, anyLoop: Bool) -> ByteStream? {
            if let loop, let index = idle.lastIndex(where: { ObjectIdentifier($0.loop) == loop }) {
                return idle.remove(at: index)
            }
            return loop == nil || anyLoop ? idle.popLast() : nil
        }

        /// For a new request: an idle connection of `loop`, else a slot to connect with, else
        /// another loop's idle connection, else a place in the queue for `waiter`.
        mutating func lease(near loop: ObjectIdentifier?, maxOpen: Int, waiter: Waiter) -> Lease {
            if let stream = takeIdle(near: loop, anyLoop: false) { return .reuse(stream) }
            if open < maxOpen {
                open += 1
                return .connect
            }
            if let stream = takeIdle(near: loop, anyLoop: true) { return .reuse(stream) }
            waiters.append(waiter, id: waiter.id.value, loop: loop)
            return .wait(waiter.id)
        }

    }

    /// The states by origin: a handful (a service's upstream origins, those with a connection or a
    /// waiter), found by a scan, as the HTTP/2 pool finds its entries: an exchange's by its request's
    /// parts (`Origin.matches`), an `Origin` made only for a new entry. A dictionary hashed the
    /// origin's hash again (`Hasher`) on each of the two lookups an exchange makes, about 245
    /// instructions each, and an `Origin` made per exchange hashed its host, ~136 (the figures:
    /// Benchmarks/README.md).
    private struct OriginStates {
        private var origins: [Origin] = []
        private var states: [OriginState] = []

        func index(of origin: Origin) -> Int? { origins.firstIndex(of: origin) }

        func index(of parts: Origin.Parts) -> Int? { origins.firstIndex { $0.matches(parts) } }

        /// `body` on the state of `parts`' origin where it lies, an empty one made first when there is none.
        mutating func with<Result>(_ parts: Origin.Parts, _ body: (inout OriginState) -> Result) -> Result {
            if let index = index(of: parts) { return body(&states[index]) }
            origins.append(parts.origin)
            states.append(OriginState())
            return body(&states[states.count - 1])
        }

        /// `body` on the state at `index` where it lies; nil when there is none.
        mutating func at<Result>(_ index: Int?, _ body: (inout OriginState) -> Result) -> Result? {
            guard let index else { return nil }
            return body(&states[index])
        }

        /// A slot of the origin at `index` freed: the oldest waiter's to connect with, else the
        /// origin has one open fewer, and its state is forgotten when nothing is open, idle or
        /// waiting there.
        mutating func release(at index: Int) -> Waiter? {
            if let waiter = states[index].waiters.pop(for: nil) { return waiter }
            states[index].open -= 1
            let state = states[index]
            guard state.open <= 0, state.idle.isEmpty, state.waiters.isEmpty else { return nil }
            origins.swapAt(index, origins.count - 1)
            states.swapAt(index, states.count - 1)
            origins.removeLast()
            states.removeLast()
            return nil
        }

        var all: [OriginState] { states }
    }

    private struct State {
        var origins = OriginStates()
        var nextWaiter: UInt64 = 0
    }

    // A spin lock and the state inline, as HTTP2ClientPool keeps its entries, not a `Locked`: the
    // pool is locked twice an exchange (`acquire`, `checkin`), and a pthread mutex's lock and unlock
    // cost about 57 instructions a time (~3.8 k a `/users?limit=30` request, callgrind). Held for
    // a scan of a handful of origins that calls out to nothing; a client's loops contend for it
    // now and then.
    private let lock = SpinLock()
    @exclusivity(unchecked) private var state = State()

    /// Runs `body` with exclusive access to the state; `body` calls out to nothing.
    @inline(__always)
    private func withState<Result>(_ body: (inout State) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&state)
    }
    let maxPerOrigin: Int
    let maxIdlePerOrigin: Int
    /// How many younger waiters of other loops may be served before the oldest waiter. 2: with
    /// 16, a loop holding few of the origin's connections fell behind whenever all were busy
    /// (p99 more than doubled at the same req/s); 0 (first come first served) cost more CPU per
    /// request than 2, which keeps most exchanges on their request's loop.
    static let maxOvertaken = 2

    init(maxPerOrigin: Int, maxIdlePerOrigin: Int) {
        self.maxPerOrigin = max(1, maxPerOrigin)
        self.maxIdlePerOrigin = min(maxIdlePerOrigin, self.maxPerOrigin)
    }

    /// For the origin of `parts`: an idle connection of `loop`; else a free slot to connect with (on
    /// `loop`: one connect, where borrowing another loop's idle connection would cost a hop
    /// on every later request too); else another loop's idle connection; else a place in the queue.
    func acquire(_ parts: Origin.Parts, near loop: EventLoop? = nil, granted: @escaping @Sendable (Grant) -> Void) -> Lease {
        let loopID = loop.map(ObjectIdentifier.init)
        return withState { state in
            // One lookup of the origin, its entry changed in place.
            let id = WaiterID(value: state.nextWaiter + 1)
            let lease = state.origins.with(parts) { $0.lease(near: loopID, maxOpen: maxPerOrigin, waiter: Waiter(id: id, granted: granted)) }
            if case .wait = lease { state.nextWaiter += 1 }
            return lease
        }
    }

    /// Leaves the queue of the origin of `parts`. False when the waiter was already granted (or never queued).
    func cancelWaiting(_ id: WaiterID, for parts: Origin.Parts) -> Bool {
        withState { state in state.origins.at(state.origins.index(of: parts)) { $0.waiters.remove(id.value) } ?? false }
    }

    /// Returns a connection to the origin of `parts` that may carry another request, with its slot.
    /// Must be called on `stream.loop`. A waiter gets it (one of its loop first, see `LoopWaiters`);
    /// else it idles (or closes when `maxIdlePerOrigin` are idle already).
    func checkin(_ stream: ByteStream, for parts: Origin.Parts) {
        enum Outcome { case handed(Waiter), idles, close }
        let loop = ObjectIdentifier(stream.loop)
        let outcome = withState { state -> Outcome in
            state.origins.with(parts) { entry -> Outcome in
                if let waiter = entry.waiters.pop(for: loop) { return .handed(waiter) }
                guard entry.idle.count < maxIdlePerOrigin else { return .close }
                entry.idle.append(stream)
                return .idles
            }
        }
        switch outcome {
        case .handed(let waiter):
            waiter.granted(.reuse(stream))
        case .idles:
            // One object the two handlers share (a closure capturing one reference needs no
            // context of its own): two contexts, with a weak and two unowned references, cost two
            // allocations and their reference counting per check-in. Made once per connection and
            // kept with it (`attachment`): one per check-in cost an allocation, a weak and an
            // unowned reference and their release each time (the figure: Benchmarks/README.md).
            let watch: IdleWatch
            if let kept = stream.attachment as? IdleWatch, kept.belongs(to: self), kept.origin.matches(parts) {
                watch = kept
            } else {
                watch = IdleWatch(pool: self, stream: stream, origin: parts.origin)
                stream.attachment = watch
            }
            // An idle connection has nothing to say; anything it sends means it is unusable.
            stream.setHandlers(onRead: { [watch] _ in watch.spoke() }, onClose: { [watch] _ in watch.closed() })
        case .close:
            stream.close()
            release(parts)
        }
    }

    /// A slot's connection to the origin of `parts` closed (or never opened): the oldest waiter may
    /// connect in its place.
    func release(_ parts: Origin.Parts) {
        release(finding: { $0.index(of: parts) })
    }

    /// `release(_:)` of a connection the pool watches (`IdleWatch`), by its origin.
    private func release(_ origin: Origin) {
        release(finding: { $0.index(of: origin) })
    }

    private func release(finding index: (OriginStates) -> Int?) {
        let waiter = withState { state -> Waiter? in
            guard let found = index(state.origins) else { return nil }
            return state.origins.release(at: found)
        }
        waiter?.granted(.connect)
    }

    var idleCount: Int { withState { $0.origins.all.reduce(0) { $0 + $1.idle.count } } }

    /// Requests waiting for a connection to `origin`.
    func waitingCount(_ origin: Origin) -> Int { withState { $0.origins.at($0.origins.index(of: origin)) { $0.waiters.count } ?? 0 } }

    /// Connections open (in use, connecting or idle) to `origin`.
    func openCount(_ origin: Origin) -> Int { withState { $0.origins.at($0.origins.index(of: origin)) { $0.open } ?? 0 } }

    /// Watches one idle connection: closed by the server, or saying something unasked.
    /// Holds the pool weakly and the stream unowned: the stream holds this (its `attachment`,
    /// and its handlers while it idles).
    private final class IdleWatch {
        weak var pool: ConnectionPool?
        /// The pool's identity, compared on each check-in where the weak reference was loaded
        /// (`swift_weakLoadStrong` and a release, ~60 instructions a check-in). A connection is
        /// checked in only to the pool that opened it, which outlives the check-in: no other pool
        /// can have taken its address meanwhile.
        private let poolID: ObjectIdentifier
        unowned let stream: ByteStream
        let origin: Origin

        init(pool: ConnectionPool, stream: ByteStream, origin: Origin) {
            self.pool = pool
            poolID = ObjectIdentifier(pool)
            self.stream = stream
            self.origin = origin
        }

        /// Made by `pool` (see `poolID`).
        func belongs(to pool: ConnectionPool) -> Bool { poolID == ObjectIdentifier(pool) }

        func closed() { pool?.closedWhileIdle(stream, origin: origin) }

        func spoke() { stream.close() }
    }

    fileprivate func closedWhileIdle(_ stream: ByteStream, origin: Origin) {
        let wasIdle = withState { state -> Bool in
            state.origins.at(state.origins.index(of: origin)) { entry -> Bool in
                guard let index = entry.idle.firstIndex(where: { $0 === stream }) else { return false }
                entry.idle.remove(at: index)
                return true
            } ?? false
        }
        if wasIdle { release(origin) }
    }
}
