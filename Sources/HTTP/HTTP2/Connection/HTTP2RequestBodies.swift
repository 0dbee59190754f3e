// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Request bodies as they arrive on one connection: the bound on what its streams hold, the body
/// timeout per stream, and the content-length a body must match.
struct HTTP2RequestBodies {
    /// Request body bytes this connection's streams hold, and the bound on them.
    private(set) var bufferedBytes = 0
    let maxBufferedBytes: Int
    let maxBodyBytes: Int
    /// Streams whose request body is still arriving (HEADERS without END_STREAM): the sweep times
    /// them out without visiting the streams that have no body.
    private var receiving: [HTTP2Stream] = []

    /// The most request body bytes one connection's streams hold at once: one largest body
    /// (`maxBodyBytes`, all an HTTP/1.1 connection holds) plus one connection receive window of
    /// other streams' bodies (what the peer may send without waiting for this side): 2 MiB with
    /// the defaults (1 MiB + 1 MiB). A lone upload of the largest size always fits; 100 streams each
    /// stopping just short of 1 MiB before END_STREAM held 100 MiB without it.
    static func maxBufferedRequestBytes(maxBodyBytes: Int, limits: HTTP2ConnectionLimits) -> Int {
        maxBodyBytes + limits.connectionWindowSize
    }

    init(maxBodyBytes: Int, limits: HTTP2ConnectionLimits) {
        self.maxBodyBytes = maxBodyBytes
        maxBufferedBytes = Self.maxBufferedRequestBytes(maxBodyBytes: maxBodyBytes, limits: limits)
    }

    var isReceiving: Bool { !receiving.isEmpty }

    /// HEADERS without END_STREAM: the body timeout starts, as HTTP/1.1's does at the end of the headers.
    mutating func awaitBody(of stream: HTTP2Stream, now: UInt64) {
        stream.bodyStartedAt = now
        receiving.append(stream)
    }

    mutating func hold(_ bytes: [UInt8], for stream: HTTP2Stream) {
        // The first DATA frame's bytes become the body: a body in one frame (most answers an upstream
        // client reads) is not copied again.
        if stream.body.isEmpty { stream.body = bytes } else { stream.body.append(contentsOf: bytes) }
        stream.heldBodyBytes += bytes.count
        bufferedBytes += bytes.count
    }

    /// A stream whose DATA takes the connection beyond `maxBufferedBytes` is refused:
    /// RST_STREAM REFUSED_STREAM, which says no handler saw the request and the client may retry it
    /// (RFC 9113 §8.7), once the connection's other uploads are in. Flow control cannot bound this
    /// by itself: withholding the connection window stalls every upload on the connection, the ones
    /// that would complete with the ones that never will, until their body timeouts. Each refusal
    /// costs the control budget (the reset), so a client that keeps provoking them meets GOAWAY.
    var overBound: Bool { bufferedBytes > maxBufferedBytes }

    /// Drops a stream's request body, and its count against the connection's bound.
    mutating func release(_ stream: HTTP2Stream) {
        bufferedBytes -= stream.heldBodyBytes
        stream.heldBodyBytes = 0
        stream.body = []
    }

    /// At END_STREAM a body is as long as its content-length said, also when that is the HEADERS'
    /// END_STREAM and the body is empty (RFC 9113 §8.1.1): otherwise the request is malformed.
    static func checkDeclaredLength(of stream: HTTP2Stream) throws(HTTP2ProtocolError) {
        guard let declared = stream.declaredContentLength, !stream.state.discardsInbound, stream.body.count != declared else { return }
        throw .stream(stream.id, .protocolError, "a body of \(stream.body.count) bytes, not the content-length of \(declared)")
    }

    /// The streams whose body is not in `timeout` after their HEADERS. Streams leave the list here
    /// once their body ended, they were answered, or they closed.
    mutating func expired(now: UInt64, after timeout: UInt64) -> [HTTP2Stream] {
        var expired: [HTTP2Stream] = []
        receiving.removeAll { stream in
            guard stream.state.awaitsPeerBody else { return true }
            guard now &- stream.bodyStartedAt > timeout else { return false }
            expired.append(stream)
            return true
        }
        return expired
    }
}
