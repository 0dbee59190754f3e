// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Which end of a connection a state machine plays: it decides who sends the preface and which
/// stream ids the peer may open (RFC 9113 §3.4, §5.1.1). This server plays `.server`; the client
/// role is here so an HTTP/2 client can be built on the same machine (its response side is not).
enum HTTP2Role: Sendable {
    case server
    case client

    /// Whether the peer may open stream `id`: a client opens odd ids, a server even ones.
    func peerOpens(_ id: UInt32) -> Bool {
        switch self {
        case .server: id & 1 == 1
        case .client: id != 0 && id & 1 == 0
        }
    }
}

/// The life of one HTTP/2 connection, in one place. The legal moves:
///
///     awaitingPreface ─► awaitingSettings ─► active ─► draining ─► closing ─► closed
///            └───────────────┴──────────────────┴─────────┴──► failed ─────────┘
///
/// `draining` is entered by the peer's GOAWAY (this side's GOAWAY not yet sent) or by a graceful
/// shutdown (sent, naming the last stream started); `closing` once a GOAWAY NO_ERROR is out and no
/// stream is left, the socket closing after its flush; `failed` after a connection error's GOAWAY,
/// what the peer still sends dropped until the close (its lingering is the socket owner's).
enum HTTP2ConnectionPhase: Equatable, Sendable {
    /// The server reads the client's 24-byte preface; `matched` bytes of it arrived.
    case awaitingPreface(matched: Int)
    /// The peer's first frame must be SETTINGS.
    case awaitingSettings
    case active
    /// Streams in progress finish; none starts once this side's GOAWAY (`goAwaySent`) is out.
    case draining(goAwaySent: UInt32?)
    /// GOAWAY NO_ERROR sent, no stream left: the close follows the flush.
    case closing
    /// GOAWAY with an error sent: input is dropped.
    case failed
    /// The socket closed.
    case closed

    /// No new stream starts: this side sent a GOAWAY (RFC 9113 §6.8).
    var goAwaySent: Bool {
        switch self {
        case .awaitingPreface, .awaitingSettings, .active: false
        case .draining(let lastStreamID): lastStreamID != nil
        case .closing, .failed, .closed: true
        }
    }

    var isDraining: Bool {
        if case .draining = self { return true }
        return false
    }

    /// The peer's SETTINGS arrived (the preface is complete).
    var prefaceComplete: Bool {
        switch self {
        case .awaitingPreface, .awaitingSettings: false
        default: true
        }
    }
}
