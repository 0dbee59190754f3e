// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// The states of RFC 9113 §5.1 a server-side stream passes through; `idle` and `reserved` have no
/// object (an idle stream is one not yet seen, and this server never pushes).
enum HTTP2StreamState: Sendable {
    /// Both sides may send.
    case open
    /// The client sent END_STREAM; the response is still going out.
    case halfClosedRemote
    /// The response is complete (END_STREAM sent) while the client still sends its body.
    case halfClosedLocal
    case closed

    var receivesFromPeer: Bool { self == .open || self == .halfClosedLocal }
    var sendsToPeer: Bool { self == .open || self == .halfClosedRemote }
}

/// How a stream that is gone ended, remembered by `HTTP2StreamTable` for a while so a late frame
/// gets the answer RFC 9113 §5.1 gives it: after the peer's reset, a stream error STREAM_CLOSED;
/// after both END_STREAMs, a connection error STREAM_CLOSED; after this side's reset, nothing
/// (frames the peer sent before it saw the reset may still be in flight).
enum HTTP2StreamEnding: Sendable {
    case resetByPeer
    case resetLocally
    case ended
}
