// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Streams

/// Sends one request and delivers one complete response (any status), or fails with an
/// `UpstreamError` for transport problems. Status interpretation and retries happen above.
public protocol UpstreamTransport: Sendable {
    func send(_ request: UpstreamRequest) -> DataStream<UpstreamResponse>

    /// `send`, with `observe` told of each response before it is delivered (`QuotaTransport`
    /// reads the rate-limit fields so). The default is a `map` after `send`; a transport that
    /// makes its responses in a stage of its own tells `observe` there (`HTTPUpstreamTransport`),
    /// a stage fewer per exchange (the figure: Benchmarks/README.md).
    func send(_ request: UpstreamRequest, observing observe: @escaping @Sendable (UpstreamResponse) -> Void) -> DataStream<UpstreamResponse>

    /// True when `send` keeps `UpstreamRequest.timeout` itself: past it the exchange is abandoned
    /// and fails with the timeout's `failure`, as a `timeout` stage after `send` would end it
    /// (`HTTPUpstreamTransport`: the HTTP client's own timer, a stage fewer per exchange; the figure:
    /// Benchmarks/README.md). False, the default: the caller bounds the exchange with that stage.
    var keepsTimeouts: Bool { get }

    /// True when `send`, or what it starts, may read `ServiceContext.current` (a library below
    /// instrumented through swift-distributed-tracing): a traced call then subscribes each attempt
    /// in its CLIENT span's context. False (`HTTPUpstreamTransport`: the request carries its span,
    /// `UpstreamRequest.span`, and nothing below reads the task-local): the attempts are subscribed
    /// with no binding of their own (`UpstreamCallRun`). True, the default.
    var readsServiceContext: Bool { get }
}

extension UpstreamTransport {
    public var keepsTimeouts: Bool { false }

    public var readsServiceContext: Bool { true }

    public func send(_ request: UpstreamRequest, observing observe: @escaping @Sendable (UpstreamResponse) -> Void) -> DataStream<UpstreamResponse> {
        send(request).map { response in
            observe(response)
            return response
        }
    }
}
