// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Something an HTTP/2 connection reports for logs and metrics: the streams it opens and closes,
/// resets and GOAWAYs either way, flow-control stalls, and the limits a peer ran into.
public struct HTTP2Event: Sendable {
    public enum Kind: String, Sendable {
        case connectionOpened = "connection_opened"
        case connectionClosed = "connection_closed"
        case streamOpened = "stream_opened"
        case streamClosed = "stream_closed"
        case resetReceived = "reset_received"
        case resetSent = "reset_sent"
        case goAwaySent = "goaway_sent"
        case goAwayReceived = "goaway_received"
        /// A stream's response waits for a WINDOW_UPDATE (counted once per stall; a window opened a
        /// few bytes at a time does not end one).
        case flowControlStall = "flow_control_stall"
        /// The peer exceeded a limit meant for abusive clients; `code` says what followed.
        case limitExceeded = "limit_exceeded"
    }

    public var kind: Kind
    public var remoteAddress: String
    public var streamID: UInt32
    public var code: HTTP2ErrorCode?
    public var reason: String?

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
