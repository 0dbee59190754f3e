// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// A stream's whole life, in one place, for either role: the states of RFC 9113 §5.1 (`reserved`
/// left out: nobody here pushes), each carrying what its open sides are doing. The legal moves:
///
///     idle ─► open(receiving, sending) ─┬─► halfClosedRemote(sending) ─┬─► closed(how)
///                                       └─► halfClosedLocal(receiving) ─┘
///     (any state ─► closed(.resetByPeer / .resetLocally))
///
/// "Local" is this side, "remote" the peer, so the same cases serve a server (the request
/// arrives, the response leaves) and a client (the other way round). A server's stream is made by
/// the peer's HEADERS, so it starts `open(.body, .awaitingHead)` and is never `idle`; a client's
/// starts `idle` and opens when its own HEADERS go out (`openLocally`).
enum HTTP2StreamState: Equatable, Sendable {
    /// What this side does with the peer's half of the stream while the peer may still send.
    enum Receiving: Equatable, Sendable {
        /// The peer's head has not arrived (a client waiting for its response's HEADERS).
        case head
        /// The peer's head arrived; its body (and trailers) arrive and are kept.
        case body
        /// This side answered without waiting for the rest (a server's 408, 413, 431): what still
        /// arrives is counted against the windows and dropped, and no handler runs.
        case discarding
    }

    /// How far this side's half of the stream got while it may still send.
    enum Sending: Equatable, Sendable {
        /// Nothing decided yet: a server's handler has not answered (a client's stream opens with
        /// its HEADERS sent, so never waits here).
        case awaitingHead
        /// The head is taken or out; DATA may follow.
        case body
        /// END_STREAM is queued behind DATA that waits for the windows: nothing more is written.
        case ending
    }

    /// Not yet opened: a client's stream before its HEADERS go out.
    case idle
    /// Both sides may send.
    case open(Receiving, Sending)
    /// The peer sent END_STREAM (a server's request is complete); this side still sends.
    case halfClosedRemote(Sending)
    /// This side sent END_STREAM (a server's response is complete); the peer still sends.
    case halfClosedLocal(Receiving)
    /// Gone, and how (`HTTP2StreamTable` remembers it a while for late frames).
    case closed(HTTP2StreamEnding)

    /// A stream the peer opened with its HEADERS (a server's request): its body may follow, no answer yet.
    static let openedByPeer = HTTP2StreamState.open(.body, .awaitingHead)

    var receivesFromPeer: Bool {
        switch self {
        case .open, .halfClosedLocal: true
        case .idle, .halfClosedRemote, .closed: false
        }
    }

    var sendsToPeer: Bool {
        switch self {
        case .open, .halfClosedRemote: true
        case .idle, .halfClosedLocal, .closed: false
        }
    }

    var isClosed: Bool {
        if case .closed = self { return true }
        return false
    }

    /// Whether what still arrives is dropped (the stream was answered without its handler).
    var discardsInbound: Bool {
        switch self {
        case .open(.discarding, _), .halfClosedLocal(.discarding): true
        default: false
        }
    }

    /// What this side's half is doing, nil once it sent END_STREAM (or never opened).
    var sending: Sending? {
        switch self {
        case .open(_, let sending), .halfClosedRemote(let sending): sending
        case .idle, .halfClosedLocal, .closed: nil
        }
    }

    /// This side's answer (its head) is taken: a server's handler answered, or a problem took its
    /// place; also once this side's half is over, answered or not (nothing more is answered).
    var responded: Bool {
        switch self {
        case .idle: false
        case .open(_, let sending), .halfClosedRemote(let sending): sending != .awaitingHead
        case .halfClosedLocal, .closed: true
        }
    }

    /// This side's half is over: END_STREAM went out, or the stream closed before it.
    var finished: Bool { !sendsToPeer && self != .idle }

    /// END_STREAM waits behind DATA for the windows.
    var isEnding: Bool { sending == .ending }

    /// A server's request waits for its body: the body timeout runs.
    var awaitsPeerBody: Bool { self == .open(.body, .awaitingHead) }

    // MARK: - Moves

    /// This side's HEADERS went out on an idle stream (a client's request): open, or half closed
    /// (local) when they carried END_STREAM. The peer's head is awaited either way.
    mutating func openLocally(endStream: Bool) {
        guard self == .idle else { return }
        self = endStream ? .halfClosedLocal(.head) : .open(.head, .body)
    }

    /// The answer is taken (a server's handler answered, or a problem took its place): its head goes out next.
    mutating func respond() {
        switch self {
        case .open(let receiving, .awaitingHead): self = .open(receiving, .body)
        case .halfClosedRemote(.awaitingHead): self = .halfClosedRemote(.body)
        default: break
        }
    }

    /// END_STREAM is queued behind DATA waiting for the windows.
    mutating func endQueued() {
        switch self {
        case .open(let receiving, _): self = .open(receiving, .ending)
        case .halfClosedRemote: self = .halfClosedRemote(.ending)
        default: break
        }
    }

    /// The peer's head arrived (a client's response): its body follows.
    mutating func peerHeadArrived() {
        switch self {
        case .open(.head, let sending): self = .open(.body, sending)
        case .halfClosedLocal(.head): self = .halfClosedLocal(.body)
        default: break
        }
    }

    /// This side answered before the peer finished sending: what the peer still sends is dropped,
    /// and when `peerEnded` its END_STREAM is already here (the frame that made this side answer).
    mutating func answerEarly(peerEnded: Bool) {
        respond()
        switch self {
        case .open(_, let sending): self = peerEnded ? .halfClosedRemote(sending) : .open(.discarding, sending)
        case .halfClosedLocal: self = .halfClosedLocal(.discarding)
        default: break
        }
    }

    /// The peer's END_STREAM arrived.
    mutating func peerEnded() {
        switch self {
        case .open(_, let sending): self = .halfClosedRemote(sending)
        case .halfClosedLocal: self = .closed(.ended)
        case .idle, .halfClosedRemote, .closed: break
        }
    }

    /// This side's END_STREAM went out.
    mutating func localEnded() {
        switch self {
        case .open(let receiving, _): self = .halfClosedLocal(receiving)
        case .halfClosedRemote: self = .closed(.ended)
        case .idle, .halfClosedLocal, .closed: break
        }
    }
}

/// How a stream that is gone ended, remembered by `HTTP2StreamTable` for a while so a late frame
/// gets the answer RFC 9113 §5.1 gives it: after the peer's reset, a stream error STREAM_CLOSED;
/// after both END_STREAMs, a connection error STREAM_CLOSED; after this side's reset, nothing
/// (frames the peer sent before it saw the reset may still be in flight).
enum HTTP2StreamEnding: Equatable, Sendable {
    case resetByPeer
    case resetLocally
    case ended
}
