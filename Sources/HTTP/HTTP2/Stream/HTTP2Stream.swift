// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Streams

/// One stream of an HTTP/2 connection: the request as it arrives, then the response as it leaves,
/// queued while the stream's flow-control window is shut. Its life is `state` alone: the answer's
/// (`AnswerLife`) is read from it, and only the state machine moves it.
// @unchecked: confined to its connection's EventLoop queue, which serialises every access the way a lock would.
final class HTTP2Stream: AnswerState, AnswerLife, @unchecked Sendable {
    let id: UInt32
    var state: HTTP2StreamState
    /// What the peer may still send on this stream, and what this side may.
    var receiveWindow: HTTP2FlowWindow
    var sendWindow: HTTP2FlowWindow
    /// Received DATA not yet returned to the peer with a WINDOW_UPDATE.
    var unacknowledgedBytes = 0

    // Request side.
    var requestHead: HTTP2RequestHead?
    var body: [UInt8] = []
    var declaredContentLength: Int?
    /// When the HEADERS came without END_STREAM: the body timeout runs from here.
    var bodyStartedAt: UInt64 = 0
    /// Body bytes counted in the connection's `bufferedRequestBytes`, until the stream closes (the
    /// handler's request holds the body until then).
    var heldBodyBytes = 0

    // Response side.
    var request: Request?
    /// Response body bytes waiting for window, and the write scheduler's notes on the stream.
    var outbound = HTTP2Outbound()

    init(id: UInt32, state: HTTP2StreamState = .openedByPeer, receiveWindow: Int, sendWindow: Int) {
        self.id = id
        self.state = state
        self.receiveWindow = HTTP2FlowWindow(receiveWindow)
        self.sendWindow = HTTP2FlowWindow(sendWindow)
    }

    var responded: Bool { state.responded }
    func markResponded() { state.respond() }
    var finished: Bool { state.finished }
}
