// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// When `HTTPClient` speaks HTTP/2, and how its HTTP/2 connections behave.
public struct HTTP2ClientSettings: Sendable {
    /// Which origins are asked for HTTP/2.
    public enum Mode: String, Sendable, CaseIterable {
        /// ALPN `h2` then `http/1.1` over TLS (the origin chooses); HTTP/1.1 in cleartext.
        case auto
        /// As `auto` over TLS; HTTP/2 without asking (h2c, RFC 9113 §3.3) in cleartext.
        case priorKnowledge = "prior-knowledge"
        /// HTTP/1.1 everywhere.
        case off
    }

    /// Which origins are asked for HTTP/2 (`auto` unless said otherwise).
    public var mode: Mode
    /// What this side allows the upstream: the frame and HPACK limits the server holds its clients
    /// to, with receive windows sized for avatars. A stream's 4 MiB window takes a large avatar whole
    /// without waiting for a WINDOW_UPDATE (a round trip each, at 64 KiB, over tens of milliseconds),
    /// and the connection's 16 MiB takes sixteen of them at once.
    public var limits: HTTP2ConnectionLimits
    /// The largest response body accepted (a larger one is reset with CANCEL and fails).
    public var maxResponseBodyBytes = 64 << 20
    /// A connection with nothing received for this long gets a PING; one that does not answer
    /// within the same time again is closed. Keeps a warm connection's NAT and proxy state alive.
    public var pingInterval: Duration = .seconds(20)

    /// Settings speaking HTTP/2 as `mode` says, with the limits and timings above.
    public init(mode: Mode = .auto) {
        self.mode = mode
        var limits = HTTP2ConnectionLimits()
        limits.initialWindowSize = 4 << 20
        limits.connectionWindowSize = 16 << 20
        self.limits = limits
    }

    /// HTTP/1.1 everywhere: `HTTPClient`'s default.
    public static let off = HTTP2ClientSettings(mode: .off)
}
