// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import NetCore
import Streams

/// One request for an HTTP/2-capable origin, from its queueing to its answer: it waits for a
/// connection, runs on one of its streams (maybe again on another connection after a GOAWAY or a
/// REFUSED_STREAM), or goes to the HTTP/1.1 client when the origin chose HTTP/1.1. `cancel()` may
/// come from any thread: it leaves the queue, resets the stream, or cancels the HTTP/1.1 exchange.
// @unchecked: `state` is only touched inside `withState`, under `lock`; the head only on the connection's loop.
final class HTTP2ClientExchange: TimedExchange, @unchecked Sendable {
    private struct State {
        var cancelled = false
        var finished = false
        var connection: HTTP2ClientConnection?
        /// The HTTP/1.1 exchange this one became.
        var fallback: Disposable?
        /// Attempts made on HTTP/2 streams; a retry after GOAWAY or REFUSED_STREAM counts one more.
        var attempts = 0
        /// The request's `timeout`, armed by `armTimeout` and disarmed when the exchange ends.
        var timeout: ExchangeTimeouts.Armed?
    }

    let request: HTTPClientRequest
    /// For the HTTP/1.1 exchange this one becomes when the origin chose HTTP/1.1.
    let client: HTTPClient
    /// Made when asked (a connect, a queue left), not per exchange: the pool finds a request's
    /// entry by its parts (`HTTP2ClientPool.Entries.with(_:_:)`), and its connection has its own.
    var origin: ConnectionPool.Origin { .init(secure: request.isSecure, host: request.host, port: request.port) }
    /// Where the caller made the request: a new connection opens on this loop.
    let home: EventLoop?
    private let answered: @Sendable (Result<HTTPClientResponse, HTTPClientError>) -> Void
    // An inline lock and state, as `ClientExchange` keeps them, not a `Locked`: that cost two
    // allocations (the box and its aligned mutex), the mutex's setup and teardown, and pthread
    // calls three times an exchange (about 480 instructions an upstream exchange, 16 k a `/users`
    // request: Benchmarks/README.md). Rarely contended: the connection's loop touches it, and a
    // cancel or the timeout now and then.
    private let lock = SpinLock()
    @exclusivity(unchecked) private var state = State()
    /// Runs `body` with exclusive access to the state; calls out to nothing.
    @inline(__always)
    private func withState<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }

    /// The response head, once it arrived (on the connection's loop).
    var head: HTTP2ResponseHead?

    /// Attempts on HTTP/2 before the exchange fails: a GOAWAY or refused stream each time is a broken upstream.
    static let maxAttempts = 3

    init(request: HTTPClientRequest, client: HTTPClient, answered: @escaping @Sendable (Result<HTTPClientResponse, HTTPClientError>) -> Void) {
        self.request = request
        home = EventLoop.current
        self.client = client
        self.answered = answered
    }

    /// The origin speaks HTTP/1.1: the pooled client's exchange answers instead.
    func sendOverHTTP1() {
        let exchange = ClientExchange(request: request, client: client) { [self] result in finish(result) }
        fellBack(to: Disposable { exchange.cancel() })
        exchange.start()
    }

    /// Safe to send again on a new connection after the server said it did not process it (RFC 9110 §9.2.2).
    var isIdempotent: Bool {
        switch request.method.rawValue {
        case "GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE": true
        default: false
        }
    }

    var isCancelled: Bool { withState { $0.cancelled } }

    /// Runs on `connection` now; false when cancelled meanwhile (the caller gives the stream back).
    func attach(to connection: HTTP2ClientConnection) -> Bool {
        withState { state in
            guard !state.cancelled, !state.finished else { return false }
            state.connection = connection
            state.attempts += 1
            return true
        }
    }

    /// Off its connection again, for a retry; false when no attempt is left (or it was cancelled).
    func detachForRetry() -> Bool {
        head = nil
        return withState { state in
            state.connection = nil
            return !state.cancelled && !state.finished && state.attempts < Self.maxAttempts
        }
    }

    /// Became an HTTP/1.1 exchange: a cancel goes there from now on.
    func fellBack(to exchange: Disposable) {
        let cancelled = withState { state -> Bool in
            state.fallback = exchange
            return state.cancelled
        }
        if cancelled { exchange.dispose() }
    }

    /// The outcome, once; nothing after a cancel.
    func finish(_ result: Result<HTTPClientResponse, HTTPClientError>) {
        let (deliver, timeout) = withState { state -> (Bool, ExchangeTimeouts.Armed?) in
            guard !state.finished, !state.cancelled else { return (false, nil) }
            state.finished = true
            state.connection = nil
            defer { state.timeout = nil }
            return (true, state.timeout)
        }
        timeout?.disarm()
        if deliver { answered(result) }
    }

    /// The caller's dispose: the stream is reset (RST_STREAM CANCEL), or the queue left. The pool
    /// is the client's, read here rather than captured beside the exchange: a disposable's closure
    /// over one reference is that reference, over two a context allocated per exchange (33 an h2c
    /// `/users` request more than over HTTP/1.1).
    func cancel() {
        guard let pool = client.http2 else { return }
        let abandoned = withState { state -> Abandoned? in
            guard !state.cancelled, !state.finished else { return nil }
            state.cancelled = true
            return Abandoned(taking: &state)
        }
        if let abandoned { abandon(abandoned, waitingIn: pool) }
    }

    /// Arms the request's `timeout`, if it has one, on the caller's loop (`ExchangeTimeouts`), as
    /// `ClientExchange` does; called before the exchange is sent. An HTTP/1.1 exchange this one becomes is not
    /// armed again: this one's timer covers it.
    func armTimeout() {
        guard let timeout = request.timeout else { return }
        let armed = client.armTimeout(self, after: timeout, home: home)
        withState { $0.timeout = armed }
    }

    /// The request's `timeout` passed first: the exchange is abandoned as a cancel abandons it
    /// (RST_STREAM CANCEL, the queue left, or the HTTP/1.1 exchange cancelled), then fails with `timedOut`.
    func timedOut() {
        let abandoned = withState { state -> Abandoned? in
            guard !state.cancelled, !state.finished else { return nil }
            state.cancelled = true
            state.finished = true
            return Abandoned(taking: &state)
        }
        guard let abandoned, let pool = client.http2 else { return }
        abandon(abandoned, waitingIn: pool)
        answered(.failure(.timedOut(after: request.timeout ?? .zero)))
    }

    /// What a cancel or the timeout takes out of the state to act on outside the lock.
    private struct Abandoned {
        let connection: HTTP2ClientConnection?
        let fallback: Disposable?
        let timeout: ExchangeTimeouts.Armed?

        init(taking state: inout State) {
            connection = state.connection
            fallback = state.fallback
            timeout = state.timeout
            state.timeout = nil
        }
    }

    private func abandon(_ abandoned: Abandoned, waitingIn pool: HTTP2ClientPool) {
        abandoned.timeout?.disarm()
        if let fallback = abandoned.fallback { return fallback.dispose() }
        if let connection = abandoned.connection {
            connection.loop.execute { connection.cancel(self) }
        } else {
            pool.leaveQueue(self)
        }
    }
}
