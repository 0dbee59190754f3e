// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Dispatch
import Streams

/// One request being answered on an HTTP/1.1 connection: the answer's progress, and what
/// HTTP/1.1 adds to it (keep-alive, body framing, the head held for the body's first bytes).
// @unchecked: confined to its connection's EventLoop queue, which serialises every access the way a lock would.
final class Exchange: AnswerState, AnswerLife, @unchecked Sendable {
    let request: Request
    /// The answer's life on HTTP/1.1: taken, then over (its last byte queued, or the connection gone).
    var responded = false
    var finished = false
    /// What the request's head asked of the connection and named as its client, as the parser
    /// noted them (the request's own header list is not searched per exchange).
    let wantsKeepAlive: Bool
    let userAgent: String?
    var keepAlive = true
    var framing = ResponseWriter.StreamFraming.none
    /// A streamed response's head, held until its body starts so both leave in one write.
    var pendingHead: [UInt8]?

    init(request: consuming Request, startedAt: ContinuousClock.Instant, wantsKeepAlive: Bool, userAgent: String?) {
        self.request = request
        self.wantsKeepAlive = wantsKeepAlive
        self.userAgent = userAgent
        super.init(startedAt: startedAt)
    }

    func markResponded() { responded = true }
}
