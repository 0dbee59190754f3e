// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import NetCore
import Streams

/// One request/response on a pooled or fresh connection. Connection work happens on the
/// connection's event loop; `cancel()` may come from any thread and closes the socket
/// (or leaves the pool's queue).
///
/// The exchange holds one of the pool's slots from the moment it gets a connection or
/// leave to connect until it checks the connection back in or releases the slot.
// @unchecked: `state` is only touched inside `withState`, under `lock`.
final class ClientExchange: TimedExchange, @unchecked Sendable {
    /// The body size from which a request's body is written apart from its head (`use`): a
    /// smaller one is copied after the head, to leave in one packet with it.
    static let bodyWrittenApart = 16 * 1024

    private struct State {
        var cancelled = false
        var finished = false
        var holdsSlot = false
        /// A connect is under way; its outcome settles the slot.
        var connecting = false
        var waiting: ConnectionPool.WaiterID?
        var waitTimer: Disposable?
        /// The request's `timeout`, armed by `armTimeout` and disarmed when the exchange ends.
        var timeout: ExchangeTimeouts.Armed?
        var stream: ByteStream?
        /// `stream` came from the pool (it may have been closed by the server meanwhile).
        var reused = false
        var parser: HTTPResponseParser
        var receivedAny = false
    }

    private let request: HTTPClientRequest
    private let client: HTTPClient
    /// Gets the outcome, once.
    private let answered: @Sendable (Result<HTTPClientResponse, HTTPClientError>) -> Void
    /// The client's pool, unretained: this exchange holds its client, which holds the pool. The
    /// pool has a side table (its idle connections' watches refer to it weakly), so each retain
    /// and release of it took the runtime's slow path, ~75–95 instructions where ~22, twice an
    /// exchange (`start`, the check-in).
    private let pool: Unmanaged<ConnectionPool>
    /// The request's scheme, host and port, read once: the pool and the fields cache find the
    /// origin by them (`Origin.matches`), where an `Origin` made per exchange hashed its host
    /// (~136 instructions an exchange).
    private let origin: ConnectionPool.Origin.Parts
    /// The loop the request was made on, if any: its connections are preferred, and a new
    /// connection is opened there, so the answer arrives on the caller's own thread.
    private let home: EventLoop?
    // An inline lock and state, not a `Locked`: that cost two allocations per exchange (the box
    // and its mutex). Rarely contended: the connection's loop
    // touches it, and a cancel from elsewhere now and then.
    private let lock = SpinLock()
    @exclusivity(unchecked) private var state: State

    init(request: HTTPClientRequest, client: HTTPClient, answered: @escaping @Sendable (Result<HTTPClientResponse, HTTPClientError>) -> Void) {
        self.request = request
        self.client = client
        self.answered = answered
        pool = .passUnretained(client.pool)
        origin = .init(request)
        home = EventLoop.current
        state = State(parser: HTTPResponseParser(requestMethod: request.method))
    }

    /// Runs `body` with exclusive access to the state; calls out to nothing but the parser.
    @inline(__always)
    private func withState<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }

    func start() {
        let lease = pool._withUnsafeGuaranteedRef { $0.acquire(origin, near: home) { [self] grant in granted(grant) } }
        switch lease {
        case .reuse(let stream):
            withState { $0.holdsSlot = true }
            // Usually an idle connection of the caller's own loop: used now, where a queued job cost
            // a closure context and a trip through the loop's inbox per exchange.
            if stream.loop.inLoop {
                use(stream, reused: true)
            } else {
                stream.loop.execute { self.use(stream, reused: true) }
            }
        case .connect:
            withState { $0.holdsSlot = true }
            connect()
        case .wait(let id):
            waitForSlot(id)
        }
    }

    func cancel() {
        let abandoned = withState { state -> Abandoned in
            state.cancelled = true
            return Abandoned(taking: &state, stream: state.finished ? nil : state.stream)
        }
        abandon(abandoned)
    }

    /// Arms the request's `timeout`, if it has one, on the caller's loop (`ExchangeTimeouts`): the
    /// exchange then ends as a `timeout` stage after `send` ended it, without that stage. Called
    /// before `start`, so nothing can have ended it yet.
    func armTimeout() {
        guard let timeout = request.timeout else { return }
        let armed = client.armTimeout(self, after: timeout, home: home)
        withState { $0.timeout = armed }
    }

    /// The request's `timeout` passed first: the exchange is abandoned as `cancel` abandons it
    /// (the connection closed, or the queue left), then fails with `timedOut`.
    func timedOut() {
        let abandoned = withState { state -> Abandoned? in
            guard !state.finished, !state.cancelled else { return nil }
            state.finished = true
            state.cancelled = true
            return Abandoned(taking: &state, stream: state.stream)
        }
        guard let abandoned else { return }
        abandon(abandoned)
        answered(.failure(.timedOut(after: request.timeout ?? .zero)))
    }

    /// What `cancel` and `timedOut` take out of the state to let go of outside the lock.
    private struct Abandoned {
        var stream: ByteStream?
        var waiting: ConnectionPool.WaiterID?
        var waitTimer: Disposable?
        var timeout: ExchangeTimeouts.Armed?

        init(taking state: inout State, stream: ByteStream?) {
            self.stream = stream
            waiting = state.waiting
            waitTimer = state.waitTimer
            timeout = state.timeout
            state.waiting = nil
            state.waitTimer = nil
            state.timeout = nil
        }
    }

    /// Leaves the queue, closes the connection in use, or gives the slot back.
    private func abandon(_ abandoned: Abandoned) {
        abandoned.waitTimer?.dispose()
        abandoned.timeout?.disarm()
        if let waiting = abandoned.waiting { _ = client.pool.cancelWaiting(waiting, for: origin) }
        if let stream = abandoned.stream {
            stream.loop.executeSoon { stream.close() }
        } else if !withState({ $0.connecting }) {
            releaseSlotIfIdle()
        }
    }

    // MARK: - Getting a connection

    /// The origin is at its cap: queue for a connection; the connect timeout covers the wait too.
    ///
    /// The wait's timer is armed on the caller's loop (`HTTPClient.timers`): under load most
    /// exchanges wait here, and a Dispatch timer each (armed, then cancelled) went through
    /// Dispatch's manager thread with a wake-up per timer.
    private func waitForSlot(_ id: ConnectionPool.WaiterID) {
        let timeout = client.connectTimeout
        let proceed = withState { state -> Bool in
            guard !state.cancelled else { return false }
            state.waiting = id
            return true
        }
        guard proceed else {
            _ = client.pool.cancelWaiting(id, for: origin)
            return
        }
        let timer = client.timers.schedule(after: timeout) { [self] in
            let stillWaiting = withState { state -> Bool in
                guard state.waiting == id else { return false }
                state.waiting = nil
                state.waitTimer = nil
                return true
            }
            guard stillWaiting, client.pool.cancelWaiting(id, for: origin) else { return }
            fail(.connection("no connection to \(origin.host):\(origin.port) became free within \(timeout.text) (\(client.pool.maxPerOrigin) in use)"))
        }
        // Granted (or cancelled) meanwhile: the timer is not needed.
        let keep = withState { state -> Bool in
            guard state.waiting == id else { return false }
            state.waitTimer = timer
            return true
        }
        if !keep { timer.dispose() }
    }

    /// Called by the pool when this exchange reaches the front of the queue.
    private func granted(_ grant: ConnectionPool.Grant) {
        let (proceed, waitTimer) = withState { state -> (Bool, Disposable?) in
            let waitTimer = state.waitTimer
            state.waiting = nil
            state.waitTimer = nil
            // A connection handed to a cancelled exchange goes straight back, slot and all.
            if case .reuse = grant, state.cancelled { return (false, waitTimer) }
            state.holdsSlot = true
            return (!state.cancelled, waitTimer)
        }
        waitTimer?.dispose()
        switch grant {
        case .reuse(let stream):
            if proceed {
                stream.loop.execute { self.use(stream, reused: true) }
            } else {
                stream.loop.execute { [client, origin] in client.pool.checkin(stream, for: origin) }
            }
        case .connect:
            if proceed { connect() } else { releaseSlotIfIdle() }
        }
    }

    private func connect() {
        guard !withState({ $0.cancelled }) else {
            releaseSlotIfIdle()
            return
        }
        if origin.secure && client.tls == nil {
            fail(.connection("TLS is unavailable: \(client.tlsFailure ?? "no context")"))
            return
        }
        withState { $0.connecting = true }
        let address = client.connectTargets.address(host: origin.host, port: origin.port)
        ByteStreamConnector.connect(
            host: address.host, port: address.port, tls: origin.secure ? client.tls : nil,
            timeout: client.connectTimeout, loop: home ?? client.loops.next()
        ) { result in
            self.withState { $0.connecting = false }
            switch result {
            case .success(let stream): self.use(stream, reused: false)
            case .failure(let error): self.fail(.connection(String(describing: error)))
            }
        }
    }

    // MARK: - The exchange

    /// On `stream.loop`: sends the request and reads the answer.
    private func use(_ stream: ByteStream, reused: Bool) {
        let proceed = withState { state -> Bool in
            guard !state.cancelled else { return false }
            state.stream = stream
            state.reused = reused
            return true
        }
        guard proceed, !stream.isClosed else {
            stream.onClose = nil
            stream.close()
            if proceed { connect() } else { releaseSlotIfIdle() }
            return
        }
        // The handlers capture the exchange alone (the stream is in `state`): no closure
        // context to allocate, two allocations per exchange fewer.
        stream.setHandlers(onRead: { [self] bytes in received(bytes) }, onClose: { [self] reason in closed(reason: reason) })
        let fields = client.requestFields.fields(for: request, parts: origin)
        let bodyCount = request.bodyCount
        guard bodyCount > 0 else { return request.withEncodedHead(fields: fields) { stream.write($0) } }
        // A large body (an OTLP export's batch, about 25 kB for 70 spans) is written after its
        // head, not appended to it: the append copied the whole body once more (a copy of every
        // byte; Benchmarks/README.md). A lent body's pieces are written where they lie, one
        // after the other.
        if bodyCount >= Self.bodyWrittenApart {
            request.withEncodedHead(fields: fields) { stream.write($0) }
            return request.forEachBodyPiece { stream.write($0) }
        }
        // One write for head and body: a small body leaves in the head's packet.
        var head = request.encodedHead(fields: fields)
        request.forEachBodyPiece { head.append(contentsOf: $0) }
        stream.write(head)
    }

    /// What one read came to, with the stream it came on: this type, consumed as it is matched,
    /// not a `(Result<Progress, Failure>, ByteStream?)` tuple, which the compiler destroyed
    /// through the standard library's value witnesses (`Result`'s, a tuple's, `Optional`'s) after
    /// copying the answer out of it: `received`'s own work (the parser and the answer's delivery
    /// apart) went from ~1,100 to ~820 instructions an exchange, ~9 k a `/users?limit=30`
    /// request (callgrind).
    private enum Reading {
        /// The answer is not complete yet, or no stream is in use (nothing to do).
        case needMore
        case complete(HTTPClientResponse, reusable: Bool, on: ByteStream)
        case failed(HTTPResponseParser.Failure, on: ByteStream)
    }

    /// Parses the read where it lies: only an incomplete head is kept by the parser.
    private func received(_ bytes: UnsafeRawBufferPointer) {
        let reading = withState { state -> Reading in
            state.receivedAny = true
            let progress: HTTPResponseParser.Progress
            do { progress = try state.parser.feed(bytes) } catch let failure as HTTPResponseParser.Failure {
                return state.stream.map { .failed(failure, on: $0) } ?? .needMore
            } catch {
                return state.stream.map { .failed(.malformed(String(describing: error)), on: $0) } ?? .needMore
            }
            // Reads come only while `use` has set the stream (and before a reconnect clears it).
            // Consumed, so the answer moves on rather than being copied and the original destroyed.
            guard let stream = state.stream, case .complete(let response, let reusable) = consume progress else { return .needMore }
            return .complete(response, reusable: reusable, on: stream)
        }
        switch consume reading {
        case .needMore:
            return
        case .complete(let response, let reusable, let stream):
            guard markFinished() else { return }
            stream.setHandlers(onRead: nil, onClose: nil)
            if reusable {
                withState { $0.holdsSlot = false }
                pool._withUnsafeGuaranteedRef { $0.checkin(stream, for: origin) }
            } else {
                stream.close()
                releaseSlot()
            }
            answered(.success(response))
        case .failed(let failure, let stream):
            fail(.malformed(String(describing: failure)))
            stream.close()
        }
    }

    private func closed(reason: ByteStream.CloseReason) {
        let (cancelled, receivedAny, reused, ending) = withState { state in
            (state.cancelled, state.receivedAny, state.reused, Result { try state.parser.connectionClosed() })
        }
        if cancelled {
            _ = markFinished()
            releaseSlot()
            return
        }
        // A pooled connection the server closed before answering: try a fresh one (in the same slot), once.
        if reused && !receivedAny {
            withState { $0.stream = nil }
            connect()
            return
        }
        switch ending {
        case .success(let response):
            guard markFinished() else { return releaseSlot() }
            releaseSlot()
            answered(.success(response))
        case .failure:
            fail(.connection("connection closed before the response was complete (\(reason))"))
        }
    }

    private func fail(_ error: HTTPClientError) {
        let stream = withState { $0.stream }
        if stream == nil || stream!.isClosed { releaseSlot() }
        guard markFinished() else { return }
        answered(.failure(error))
    }

    /// True for the first ending only; it disarms the timeout.
    private func markFinished() -> Bool {
        let (first, timeout) = withState { state -> (Bool, ExchangeTimeouts.Armed?) in
            guard !state.finished else { return (false, nil) }
            state.finished = true
            // Moved out, not copied then cleared: a retain, a release and two outlined witnesses fewer.
            return (true, state.timeout.take())
        }
        timeout?.disarm()
        return first
    }

    /// Gives the slot back, once.
    private func releaseSlot() {
        let held = withState { state -> Bool in
            defer { state.holdsSlot = false }
            return state.holdsSlot
        }
        if held { client.pool.release(origin) }
    }

    /// Cancelled before any connection was in use: the slot goes back now.
    private func releaseSlotIfIdle() {
        guard withState({ $0.stream == nil }) else { return }
        releaseSlot()
    }
}
