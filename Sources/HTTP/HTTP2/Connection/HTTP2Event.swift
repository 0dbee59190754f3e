// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Something an HTTP/2 connection reports for logs and metrics: the streams it opens and closes,
/// resets and GOAWAYs either way, flow-control stalls, and the limits a peer ran into.
///
/// Delivered to ``HTTPServerObserver/http2Event``; the service logs the notable ones
/// (``isNotable``) and counts the rest.
public struct HTTP2Event: Sendable {
    /// What happened.
    public enum Kind: String, Sendable {
        /// A connection turned out to speak HTTP/2 (TLS ALPN `h2`, or cleartext with prior knowledge).
        case connectionOpened = "connection_opened"
        /// The connection ended, for whatever reason.
        case connectionClosed = "connection_closed"
        /// A request's HEADERS opened a stream.
        case streamOpened = "stream_opened"
        /// A stream ended: its response was sent and its request read, or it was reset.
        case streamClosed = "stream_closed"
        /// The client reset a stream (RST_STREAM); `code` says why.
        case resetReceived = "reset_received"
        /// This side reset a stream (RST_STREAM); `code` and `reason` say why.
        case resetSent = "reset_sent"
        /// This side sent GOAWAY: a graceful shutdown (`noError`) or a connection error.
        case goAwaySent = "goaway_sent"
        /// The client sent GOAWAY.
        case goAwayReceived = "goaway_received"
        /// A stream's response waits for a WINDOW_UPDATE (counted once per stall; a window opened a
        /// few bytes at a time does not end one).
        case flowControlStall = "flow_control_stall"
        /// The peer exceeded a limit meant for abusive clients; `code` says what followed.
        case limitExceeded = "limit_exceeded"
    }

    /// What happened.
    public var kind: Kind
    /// The client's address, as `host:port`.
    public var remoteAddress: String
    /// The stream it happened on; 0 for the connection itself.
    public var streamID: UInt32
    /// The error code of a reset or GOAWAY, or of what followed an exceeded limit.
    public var code: HTTP2ErrorCode?
    /// Why this side reset or went away, in words for a log line.
    public var reason: String?

    /// An event, as the connection reports it (tests build their own to drive an observer).
    public init(kind: Kind, remoteAddress: String, streamID: UInt32 = 0, code: HTTP2ErrorCode? = nil, reason: String? = nil) {
        self.kind = kind
        self.remoteAddress = remoteAddress
        self.streamID = streamID
        self.code = code
        self.reason = reason
    }

    /// The events worth a log line: everything but the per-stream bookkeeping.
    public var isNotable: Bool {
        switch kind {
        case .resetSent, .goAwaySent, .goAwayReceived, .limitExceeded: true
        case .resetReceived: code != .cancel && code != .noError
        default: false
        }
    }
}
