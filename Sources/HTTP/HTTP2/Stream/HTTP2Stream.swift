// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Streams

/// One stream of an HTTP/2 connection: the request as it arrives, then the response as it leaves,
/// queued while the stream's flow-control window is shut. Its life is `state` alone: the answer's
/// (`AnswerLife`) is read from it, and only the state machine moves it.
// @unchecked: confined to its connection's EventLoop queue, which serialises every access the way a lock would.
final class HTTP2Stream: AnswerState, AnswerLife, @unchecked Sendable {
    let id: UInt32
    // Its state is its connection's loop's alone, changed only by the state machine and the
    // connection's owner, and no change calls out while it lasts: the fields skip run-time
    // exclusivity checks (about 20 instructions an access, several accesses a frame; the figure:
    // Benchmarks/README.md).
    @exclusivity(unchecked) var state: HTTP2StreamState
    /// What the peer may still send on this stream, and what this side may.
    @exclusivity(unchecked) var receiveWindow: HTTP2FlowWindow
    @exclusivity(unchecked) var sendWindow: HTTP2FlowWindow
    /// Received DATA not yet returned to the peer with a WINDOW_UPDATE.
    @exclusivity(unchecked) var unacknowledgedBytes = 0

    // Request side.
    @exclusivity(unchecked) var requestHead: HTTP2RequestHead?
    @exclusivity(unchecked) var body: [UInt8] = []
    @exclusivity(unchecked) var declaredContentLength: Int?
    /// When the HEADERS came without END_STREAM: the body timeout runs from here.
    @exclusivity(unchecked) var bodyStartedAt: UInt64 = 0
    /// Body bytes counted in the connection's `bufferedRequestBytes`, until the stream closes (the
    /// handler's request holds the body until then).
    @exclusivity(unchecked) var heldBodyBytes = 0

    // Response side.
    @exclusivity(unchecked) var request: Request?
    /// The client role's: the exchange waiting for this stream's response (found here, not by id
    /// in a dictionary, which hashed the id on every HEADERS and end).
    @exclusivity(unchecked) var exchange: HTTP2ClientExchange?
    /// Response body bytes waiting for window, and the write scheduler's notes on the stream.
    @exclusivity(unchecked) var outbound = HTTP2Outbound()

    init(id: UInt32, state: HTTP2StreamState = .openedByPeer, receiveWindow: Int, sendWindow: Int, startedAt: ContinuousClock.Instant = .now) {
        self.id = id
        self.state = state
        self.receiveWindow = HTTP2FlowWindow(receiveWindow)
        self.sendWindow = HTTP2FlowWindow(sendWindow)
        super.init(startedAt: startedAt)
    }

    /// A client's streams' `startedAt`: they answer no request, so no access log reads it, and
    /// reading the clock for each cost about 100 instructions an upstream exchange.
    static let unansweredStart = ContinuousClock.now

    var responded: Bool { state.responded }
    func markResponded() { state.respond() }
    var finished: Bool { state.finished }
}
