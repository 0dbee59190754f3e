// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NetCore
import Streams

/// An HTTP/1.1 client on NetCore: keep-alive connections per origin, capped, TLS with
/// certificate and hostname verification for https, gzip bodies decoded. `send` is cold:
/// each subscription sends the request once; disposing it in flight closes its connection
/// (or leaves the queue for one).
///
/// ```swift
/// let client = HTTPClient()
/// client.send(HTTPClientRequest(url: URL(string: "http://127.0.0.1:8080/status")!))
///     .watch(data: { response in print(response.status) })
/// ```
public final class HTTPClient: Sendable {
    let pool: ConnectionPool
    let connectTimeout: Duration
    let tls: TLSContext?
    /// Why `tls` is nil: said in every https failure and by `tlsUnavailable`, never dropped.
    let tlsFailure: String?
    let loops: EventLoopGroup
    /// Connect-wait timeouts, on the loop of the exchange that waits.
    let timers: CurrentLoopScheduler
    /// Request timeouts (`HTTPClientRequest.timeout`), on the loop of the exchange's caller.
    private let timeouts: PerLoop<ExchangeTimeouts.Owner>
    /// Those of callers on no loop, on `timers`' fallback loop.
    private let offLoopTimeouts: ExchangeTimeouts.Owner
    /// Encoded request fields per origin and field list, reused request after request.
    let requestFields = RequestFieldsCache()
    /// The same for HTTP/2: `:authority` and the fields lowered and filtered (`HTTP2RequestFields`).
    let http2RequestFields = RequestFieldsCache { HTTP2RequestFields.Shared(HTTP2RequestFields.shared(of: $0)) }
    /// Names whose connections go elsewhere (curl's `--connect-to`).
    let connectTargets: [ConnectTarget]
    /// HTTP/2 connections, for the origins `http2` sends there; nil when HTTP/2 is off.
    let http2: HTTP2ClientPool?
    /// Which answers `send` delivers as an `HTTPStatusError` (none by default).
    public let statusPolicy: HTTPStatusPolicy

    /// A client with its own connection pool; share one client across requests, so keep-alive
    /// connections are reused.
    ///
    /// - Parameters:
    ///   - connectTimeout: limit for getting a connection, waiting for a free one included.
    ///   - maxConnectionsPerOrigin: connections open at once to one origin (in use, connecting
    ///     or idle); further requests wait for one. 64 lets a burst reuse connections instead
    ///     of opening hundreds, while keeping a slow upstream's answers overlapping.
    ///   - maxIdlePerOrigin: idle keep-alive connections kept per origin.
    ///   - tlsConfiguration: how https origins are verified (system CAs by default).
    ///   - loops: the event loops the connections live on (the process-wide group by default).
    ///   - connectTo: names in URLs whose connections go to another address; TLS then verifies
    ///     the address's host.
    ///   - http2: when to speak HTTP/2 (`HTTP2ClientSettings.Mode`); off by default. Either way the
    ///     answers are the same `HTTPClientResponse`s.
    ///   - statusPolicy: which answers `send` delivers as an `HTTPStatusError` instead of a response:
    ///     none by default (`deliverAll`); `failRetryable` for a 5xx or a 429 that `retry` should see.
    public init(
        connectTimeout: Duration = .seconds(5), maxConnectionsPerOrigin: Int = 64, maxIdlePerOrigin: Int = 64,
        tlsConfiguration: TLSConfiguration = .client(), loops: EventLoopGroup = .shared, connectTo: [ConnectTarget] = [],
        http2: HTTP2ClientSettings = .off, statusPolicy: HTTPStatusPolicy = .deliverAll
    ) {
        self.statusPolicy = statusPolicy
        connectTargets = connectTo
        pool = ConnectionPool(maxPerOrigin: maxConnectionsPerOrigin, maxIdlePerOrigin: maxIdlePerOrigin)
        self.connectTimeout = connectTimeout
        // Without a usable TLS context https requests fail, saying why; plain http still works.
        do {
            tls = try TLSContext(configuration: tlsConfiguration)
            tlsFailure = nil
        } catch {
            tls = nil
            tlsFailure = String(describing: error)
        }
        self.loops = loops
        let fallback = loops.next()
        let timers = CurrentLoopScheduler(fallback: fallback)
        self.timers = timers
        timeouts = PerLoop { loop in ExchangeTimeouts.Owner(loop: loop, outOfOrder: timers) }
        offLoopTimeouts = ExchangeTimeouts.Owner(loop: fallback, outOfOrder: timers)
        if http2.mode == .off {
            self.http2 = nil
        } else {
            // Its own context: the HTTP/1.1 client's offers `http/1.1` alone, as before.
            var alpn = tlsConfiguration
            alpn.alpnProtocols = ["h2", "http/1.1"]
            let context = Result { try TLSContext(configuration: alpn) }
            self.http2 = HTTP2ClientPool(
                settings: http2, tls: try? context.get(), tlsFailure: tlsFailure ?? context.failureText, connectTimeout: connectTimeout,
                connectTargets: connectTo, loops: loops)
        }
    }

    deinit {
        http2?.shutdown()
    }

    /// Opens a connection to `url`'s origin now, when it goes over HTTP/2, so that the first request
    /// finds it ready (TCP, TLS and SETTINGS done); PING keeps it open while idle. Nothing for an
    /// HTTP/1.1 origin.
    public func warm(_ url: URL) {
        let request = HTTPClientRequest(url: url)
        guard let http2, http2.carries(request) else { return }
        http2.warm(.init(secure: request.isSecure, host: request.host, port: request.port))
    }

    /// Connections open to `url`'s origin: in use, idle or being opened over HTTP/1.1, plus HTTP/2 ones.
    public func openConnections(to url: URL) -> Int {
        let request = HTTPClientRequest(url: url)
        let origin = ConnectionPool.Origin(secure: request.isSecure, host: request.host, port: request.port)
        return pool.openCount(origin) + (http2?.connectionCount(origin) ?? 0)
    }

    /// Why https requests cannot be made (the TLS context could not be set up, e.g. an unreadable
    /// CA file); nil when they can. A service with an https upstream refuses to start on it.
    public var tlsUnavailable: String? { tlsFailure }

    /// Idle keep-alive connections across all origins.
    public var idleConnections: Int { pool.idleCount }

    /// One response per subscription, or an `HTTPClientError`, or an `HTTPStatusError` for an
    /// answer `statusPolicy` fails (by default none: any status is a response).
    public func send(_ request: HTTPClientRequest) -> DataStream<HTTPClientResponse> {
        send(request, answer: { $0 }, errors: { $0 })
    }

    /// `send(_:)` with its answer and its failure put in the caller's terms as they arrive:
    /// what `send(request).map(answer, errors: errors)` does, in one stage instead of two (a
    /// stream, a watcher and a stage fewer per exchange; the figure: Benchmarks/README.md).
    @inlinable
    public func send<Answer: Sendable>(
        _ request: HTTPClientRequest, answer: @escaping @Sendable (HTTPClientResponse) -> Answer,
        errors: @escaping @Sendable (any Error) -> any Error
    ) -> DataStream<Answer> {
        DataStream { watcher in
            self.exchange(request) { outcome in
                switch outcome {
                case .success(let response) where !self.statusPolicy.deliversAll && self.statusPolicy.fails(response.status):
                    watcher.error(errors(HTTPStatusError(response)))
                case .success(let response):
                    watcher.data(answer(response))
                    watcher.end()
                case .failure(let error):
                    watcher.error(errors(error))
                }
            }
        }
    }

    /// Sends `request` once; `answered` gets its outcome once, on the connection's loop, unless
    /// the returned disposable is disposed first (it then closes the connection or leaves the
    /// queue for one). `send` is this as a stream; a caller that wants its own answer and error
    /// types has them made as they arrive (`send(_:answer:errors:)`).
    @usableFromInline
    func exchange(_ request: HTTPClientRequest, answered: @escaping @Sendable (Result<HTTPClientResponse, HTTPClientError>) -> Void) -> Disposable {
        if let http2, http2.carries(request) {
            let exchange = HTTP2ClientExchange(request: request, client: self, answered: answered)
            exchange.armTimeout()
            http2.send(exchange)
            return Disposable { exchange.cancel() }
        }
        let exchange = ClientExchange(request: request, client: self, answered: answered)
        exchange.armTimeout()
        exchange.start()
        return Disposable { exchange.cancel() }
    }
}

extension HTTPClient {
    /// Arms `exchange`'s request timeout, `timeout` from now, on the queue of `home`, the loop the
    /// exchange was made on (where it asks: see `PerLoop`), or of callers on no loop.
    func armTimeout(_ exchange: any TimedExchange, after timeout: Duration, home: EventLoop?) -> ExchangeTimeouts.Armed {
        (home.map { timeouts.value(on: $0) } ?? offLoopTimeouts).timeouts.arm(exchange, after: timeout)
    }

    /// Request timeouts armed and not yet ended, on the caller's loop's queue (tests).
    var armedTimeouts: Int {
        (EventLoop.current.map { timeouts.value(on: $0) } ?? offLoopTimeouts).timeouts.count
    }
}

extension Result where Failure == any Error {
    /// The error's text, or nil on success.
    fileprivate var failureText: String? {
        if case .failure(let error) = self { return String(describing: error) }
        return nil
    }
}
