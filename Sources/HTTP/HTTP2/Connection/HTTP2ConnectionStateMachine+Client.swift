// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// The client role's half of the machine: streams this side opens (one request each, odd ids),
/// the response's header blocks (interim ones skipped, trailers ignored), its end, a cancel, the
/// peer's GOAWAY naming the streams it will not process, and PING. Frames, windows and every limit
/// against a hostile peer are the shared code's, whichever role the peer plays.
extension HTTP2ConnectionStateMachine {
    /// The GOAWAY this side sends names the last stream the peer opened: none for a client (push is off).
    var goAwayLastStreamID: UInt32 { role == .server ? streams.highestStreamID : 0 }

    /// Stream ids are spent: a connection that has opened 2^31-1 of them opens no more (§5.1.1).
    var canOpenStream: Bool {
        role == .client && streams.highestStreamID < HTTP2ConnectionStateMachine.lastClientStreamID - 1
            && (phase == .active || phase == .awaitingSettings)
    }

    static let lastClientStreamID: UInt32 = 0x7FFF_FFFF

    /// Opens the next stream with a request's header block (`fields`, pseudo-headers first); with
    /// `endStream` the request is complete (a GET). Nil when no stream can be opened here.
    /// `template`: as for `HPACKEncoder.encode(_:template:varyingAt:name:value:valueString:into:)`.
    func openStream(fields: some Sequence<(name: String, value: String)>, endStream: Bool, template: HTTP2RequestTemplate? = nil) -> HTTP2Stream? {
        guard canOpenStream else { return nil }
        let id = streams.highestStreamID == 0 ? 1 : streams.highestStreamID + 2
        streams.highestStreamID = id
        let opened = HTTP2Stream(
            id: id, state: .idle, receiveWindow: limits.initialWindowSize, sendWindow: peer.initialWindowSize, startedAt: HTTP2Stream.unansweredStart)
        streams.insert(opened)
        report(.streamOpened, streamID: id)
        opened.state.openLocally(endStream: endStream)
        sender.sendHeaders(streamID: id, fields: fields, endStream: endStream, template: template)
        return opened
    }

    /// The request's END_STREAM went out after its body: the stream waits for the response alone.
    func requestSent(_ target: HTTP2Stream) {
        if case .halfClosedRemote = target.state {
            close(target, as: .ended)
        } else {
            target.state.localEnded()
        }
    }

    /// The caller no longer wants the answer: RST_STREAM CANCEL (§8.7). Not counted against the
    /// reset budget, which is for resets the peer provokes.
    func cancel(_ target: HTTP2Stream) {
        guard isOpen(target) else { return }
        sender.send(HTTP2Frame(streamID: target.id, payload: .rstStream(.cancel)))
        report(.resetSent, streamID: target.id, code: .cancel, reason: "the caller cancelled")
        close(target, as: .resetLocally)
    }

    /// A PING whose acknowledgement says the connection is alive.
    func ping(_ opaque: UInt64) {
        guard phase != .failed, phase != .closed else { return }
        sender.send(HTTP2Frame(streamID: 0, payload: .ping(withUnsafeBytes(of: opaque.bigEndian) { Array($0) })))
    }

    /// Streams above the peer's GOAWAY were not processed: they close, unanswered, for the owner to retry.
    func closeStreams(above lastStreamID: UInt32) {
        for target in streams.ordered where target.id > lastStreamID { close(target, as: .resetByPeer) }
    }

    /// A client's peer answers on the streams the client opened (odd ids, push is off).
    func checkResponseHeadersStream(_ id: UInt32) throws(HTTP2ProtocolError) {
        guard id & 1 == 1 && id <= streams.highestStreamID else {
            throw .connection(.protocolError, "HEADERS on stream \(id), which the peer cannot open")
        }
    }

    /// A response's whole header block on stream `id`, decoded whatever becomes of the stream (the
    /// table must stay in step with the peer's, RFC 9113 §4.3). Its fields stay bytes
    /// (`ReceivedFields`), as an HTTP/1.1 head's do.
    func responseHeaderBlock(_ id: UInt32, block: UnsafeBufferPointer<UInt8>, endStream: Bool) throws(HTTP2ProtocolError) {
        let decoded: HPACKFieldBytes
        do {
            decoded = try decoder.decodeBytes(block)
        } catch {
            throw .connection(.compressionError, error.description)
        }
        try responseHeaderBlock(id, consume decoded, endStream: endStream)
    }

    /// A response header block on stream `id`: the head (after any interim 1xx), or trailers, which are ignored.
    /// `decoded` is taken (`consume`): its storage becomes the head's fields in place.
    func responseHeaderBlock(_ id: UInt32, _ decoded: consuming HPACKFieldBytes, endStream: Bool) throws(HTTP2ProtocolError) {
        guard let target = streams[id] else {
            if try streams.ignoresClosed(id, frame: "HEADERS") { return }
            throw .connection(.streamClosed, "HEADERS on closed stream \(id)")
        }
        guard target.state.receivesFromPeer else { throw .stream(id, .streamClosed, "HEADERS after the response's END_STREAM") }
        if decoded.overListSize {
            report(.limitExceeded, streamID: id, code: .protocolError, reason: "header list above \(limits.maxHeaderListSize) bytes")
            throw .stream(id, .protocolError, "a response header list above \(limits.maxHeaderListSize) bytes")
        }
        if !target.state.awaitsPeerHead {
            guard endStream else { throw .stream(id, .protocolError, "trailers without END_STREAM") }
            do { try HTTP2RequestHead.validateTrailers(decoded.fields, checked: decoded.checkedFields) } catch { throw .stream(id, .protocolError, error.reason) }
            try HTTP2RequestBodies.checkDeclaredLength(of: target)
            responseEnded(target)
            return
        }
        let head: HTTP2ResponseHead
        do { head = try HTTP2ResponseHead(validatingBytes: consume decoded) } catch { throw .stream(id, .protocolError, error.reason) }
        if head.isInterim {
            guard !endStream else { throw .stream(id, .protocolError, "an interim response with END_STREAM") }
            return
        }
        target.state.peerHeadArrived()
        // A HEAD's, a 204's and a 304's content-length describes a body that is not sent.
        if head.status != 204 && head.status != 304 { target.declaredContentLength = head.contentLength }
        // Handed over (`consume`): copied, its fields' storage was retained and released again,
        // through outlined copies (about 55 instructions an exchange: Benchmarks/README.md).
        owner.receivedResponseHead(target, consume head)
        if endStream {
            try HTTP2RequestBodies.checkDeclaredLength(of: target)
            responseEnded(target)
        }
    }

    /// The response's END_STREAM: the owner takes its body from `target.body` (before `close`
    /// releases it), then the stream closes, no longer awaited (`close` tells the owner nothing more).
    func responseEnded(_ target: HTTP2Stream) {
        guard target.state.receivesFromPeer else { return }
        owner.answerEnded(target, completed: true)
        switch target.state {
        case .halfClosedLocal:
            target.state.peerEnded()
            close(target, as: .ended)
        case .open:
            // Answered before the request's body was sent: the rest is not wanted (§8.1).
            target.state = .closed(.resetLocally)
            sender.send(HTTP2Frame(streamID: target.id, payload: .rstStream(.noError)))
            close(target, as: .resetLocally)
        case .idle, .halfClosedRemote, .closed: break
        }
    }
}

extension HTTP2StreamState {
    /// A client's stream waiting for its response's HEADERS (DATA now is malformed).
    var awaitsPeerHead: Bool {
        switch self {
        case .open(.head, _), .halfClosedLocal(.head): true
        default: false
        }
    }
}
