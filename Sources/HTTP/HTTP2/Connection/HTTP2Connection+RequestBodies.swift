import Dispatch
import StreamServiceConcurrency

/// Request bodies as they arrive: the body timeout per stream, the bound on what a connection's
/// streams hold, and the content-length a body must match.
extension HTTP2Connection {
    /// The most request body bytes one connection's streams hold at once: one largest body
    /// (`maxBodyBytes`, all an HTTP/1.1 connection holds) plus one connection receive window of
    /// other streams' bodies (what the peer may send without waiting for this side): 2 MiB with
    /// the defaults (1 MiB + 1 MiB). A lone upload of the largest size always fits; 100 streams each
    /// stopping just short of 1 MiB before END_STREAM held 100 MiB without it.
    static func maxBufferedRequestBytes(maxBodyBytes: Int, limits: HTTP2ConnectionLimits) -> Int {
        maxBodyBytes + limits.connectionWindowSize
    }

    /// A stream whose DATA takes the connection beyond `maxBufferedRequestBytes` is refused:
    /// RST_STREAM REFUSED_STREAM, which says no handler saw the request and the client may retry it
    /// (RFC 9113 §8.7), once the connection's other uploads are in. Flow control cannot bound this
    /// by itself: withholding the connection window stalls every upload on the connection, the ones
    /// that would complete with the ones that never will, until their body timeouts. Each refusal
    /// costs the control budget (`resetStream`), so a client that keeps provoking them meets GOAWAY.
    func refuseBeyondBufferedBytes(_ target: HTTP2Stream) throws(HTTP2ProtocolError) {
        guard bufferedRequestBytes > maxBufferedRequestBytes else { return }
        let reason = "more than \(maxBufferedRequestBytes) buffered request bytes on the connection"
        report(.limitExceeded, streamID: target.id, code: .refusedStream, reason: reason)
        throw .stream(target.id, .refusedStream, reason)
    }

    /// Drops a stream's request body, and its count against the connection's bound.
    func releaseBody(of target: HTTP2Stream) {
        bufferedRequestBytes -= target.heldBodyBytes
        target.heldBodyBytes = 0
        target.body = []
    }

    /// HEADERS without END_STREAM: the body timeout starts, as HTTP/1.1's does at the end of the headers.
    func awaitBody(of target: HTTP2Stream) {
        target.bodyStartedAt = DispatchTime.now().uptimeNanoseconds
        receivingBodies.append(target.id)
    }

    /// At END_STREAM a body is as long as its content-length said, also when that is the HEADERS'
    /// END_STREAM and the body is empty (RFC 9113 §8.1.1): otherwise the request is malformed.
    func checkDeclaredLength(of target: HTTP2Stream) throws(HTTP2ProtocolError) {
        guard let declared = target.declaredContentLength, !target.discardsBody, target.body.count != declared else { return }
        throw .stream(target.id, .protocolError, "a body of \(target.body.count) bytes, not the content-length of \(declared)")
    }

    /// The body timeout, per stream as HTTP/1.1's per request: from the HEADERS to END_STREAM. A
    /// stream whose body is not in by then is answered 408 (counted as HTTP/1.1's is) and, once the
    /// answer is out, closed with RST_STREAM NO_ERROR (`responseSent`); the connection's other streams
    /// go on. Streams leave the list here once their body ended, they were answered, or they closed.
    func timeOutBodies(now: UInt64, after timeout: Duration) {
        var expired: [HTTP2Stream] = []
        receivingBodies.removeAll { id in
            guard let target = streams[id], target.state == .open, !target.responded else { return true }
            guard now &- target.bodyStartedAt > timeout.nanoseconds else { return false }
            expired.append(target)
            return true
        }
        let detail = "The request's body was not received within \(timeout.text) of its headers"
        for target in expired where holds(target) {
            context.observer.requestRejected?(Rejection(
                status: HTTPStatus.requestTimeout.code, reason: .bodyTimeout, detail: detail, remoteAddress: stream.remoteAddress))
            releaseBody(of: target)
            answerWithoutHandler(target, .requestTimeout, detail: detail, requestEnds: false)
        }
    }
}
