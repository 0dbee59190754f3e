// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore
import Tracing

/// Everything `HTTPServer` needs to know before `start()`.
public struct HTTPServerConfiguration: Sendable {
    /// The address to listen on: `0.0.0.0` for every IPv4 interface, `127.0.0.1` for loopback only, `::` for IPv6.
    public var host = "0.0.0.0"
    /// 0 asks the system for a free port; `start()` returns the bound one.
    public var port = 8080
    /// Size and connection limits per request and per server.
    public var limits = HTTPLimits()
    /// Whose connections `limits.maxConnectionsPerClient` counts together.
    public var perClientConnectionKey = PerClientConnectionKey.peerAddress
    /// How long a connection may take at each step before it is closed.
    public var timeouts = HTTPTimeouts()
    /// TLS for every connection when set (TLS 1.2 minimum by default).
    public var tls: TLSConfiguration?
    /// Event loops sharing the connections; two per core by default (see `EventLoopGroup.defaultLoopCount`).
    public var loopCount = EventLoopGroup.defaultLoopCount
    /// How new connections are spread over the loops.
    public var acceptBalancing = AcceptBalancing.default
    /// Listen backlog; large so a burst of thousands of connects is not dropped.
    public var backlog: Int32 = 4096
    /// Fixed bodies at least this large are gzipped when the client accepts gzip.
    public var compressionMinimumBytes = 256
    /// `Server` header value; nil sends none.
    public var serverName: String? = "StreamService"
    /// Starts the ids of requests without a usable `X-Request-ID` (then a per-process counter).
    public var requestIDPrefix = "req-"
    /// HTTP/2 beside HTTP/1.1 on the same port: h2c with prior knowledge in cleartext, `h2` by
    /// ALPN over TLS (then offered before `http/1.1`). Off, every connection is HTTP/1.1.
    public var http2Enabled = true
    /// What an HTTP/2 connection allows its peer.
    public var http2 = HTTP2ConnectionLimits()
    /// The tracer of the requests' SERVER spans; nil: the one bootstrapped in
    /// `InstrumentationSystem` when `start()` runs (none: no spans, at no cost).
    public var tracer: (any Tracer)?

    /// A configuration listening on `host` and `port`, every other setting at its default.
    public init(host: String = "0.0.0.0", port: Int = 8080) {
        self.host = host
        self.port = port
    }
}
