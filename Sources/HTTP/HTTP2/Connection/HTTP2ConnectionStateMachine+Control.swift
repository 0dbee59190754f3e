// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// The control frames (RST_STREAM, SETTINGS, WINDOW_UPDATE), the abuse limits, the answers' way
/// out (headers, DATA under the windows, the end of a response) and the timer's sweep.
extension HTTP2ConnectionStateMachine {
    /// This side's SETTINGS (and the larger connection window), the first frames it sends.
    func start() {
        var settings = [
            HTTP2Setting(.maxConcurrentStreams, UInt32(limits.maxConcurrentStreams)),
            HTTP2Setting(.maxHeaderListSize, UInt32(limits.maxHeaderListSize)),
        ]
        if limits.initialWindowSize != 65_535 { settings.append(HTTP2Setting(.initialWindowSize, UInt32(limits.initialWindowSize))) }
        if limits.maxFrameSize != 16_384 { settings.append(HTTP2Setting(.maxFrameSize, UInt32(limits.maxFrameSize))) }
        if role == .client {
            settings.append(HTTP2Setting(.enablePush, 0))
            sender.sendPreface()
        }
        sender.send(HTTP2Frame(streamID: 0, payload: .settings(settings)))
        if limits.connectionWindowSize > 65_535 {
            sender.send(HTTP2Frame(streamID: 0, payload: .windowUpdate(increment: UInt32(limits.connectionWindowSize - 65_535))))
        }
    }

    /// Whether `target` is still one of this connection's streams. A stream is in `streams` from its
    /// HEADERS until `close`, which also marks it closed, so its state answers without a hash lookup:
    /// a broadcast event asked three times per stream, each a likely cache miss among 50,000 streams.
    /// Debug builds (the tests) check that both answers agree.
    func isOpen(_ target: HTTP2Stream) -> Bool {
        assert((streams[target.id] === target) == !target.state.isClosed, "stream \(target.id): its state and the stream table disagree")
        return !target.state.isClosed
    }

    func report(_ kind: HTTP2Event.Kind, streamID: UInt32 = 0, code: HTTP2ErrorCode? = nil, reason: String? = nil) {
        owner.report(kind, streamID: streamID, code: code, reason: reason)
    }

    // MARK: - RST_STREAM, SETTINGS, WINDOW_UPDATE

    func receivedReset(_ id: UInt32, code: HTTP2ErrorCode) throws(HTTP2ProtocolError) {
        guard id <= streams.highestStreamID else { throw .connection(.protocolError, "RST_STREAM on idle stream \(id)") }
        guard let target = streams[id] else {
            // Allowed for a while after the stream's end (§5.1), and ignored, but each costs like a control frame.
            try spendControlBudget("RST_STREAM on a closed stream")
            return
        }
        report(.resetReceived, streamID: id, code: code)
        if target.state.sendsToPeer && !resetBudget.spend(now: clock()) {
            report(.limitExceeded, streamID: id, code: .enhanceYourCalm, reason: "rapid reset")
            throw .connection(.enhanceYourCalm, "more than \(limits.resetBurst) streams reset before their response, and \(limits.resetsPerSecond) a second")
        }
        // As a closed HTTP/1.1 connection does: the stream's pipeline is disposed.
        close(target, as: .resetByPeer)
    }

    func receivedSettings(_ settings: [HTTP2Setting]) throws(HTTP2ProtocolError) {
        let oldWindow = peer.initialWindowSize
        for setting in settings { try peer.apply(setting) }
        sender.setMaxTableSize(min(peer.headerTableSize, 4096))
        sender.maxFrameSize = peer.maxFrameSize
        let delta = peer.initialWindowSize - oldWindow
        if delta != 0 {
            for target in streams.open.values where !target.sendWindow.increase(by: delta) {
                throw .connection(.flowControlError, "SETTINGS_INITIAL_WINDOW_SIZE takes stream \(target.id)'s window above 2^31-1")
            }
        }
        try checkPeerReads("SETTINGS")
        sender.send(HTTP2Frame(streamID: 0, flags: .ack, payload: .settings([])))
        if delta > 0 { flushWaiting() }
    }

    func receivedWindowUpdate(_ id: UInt32, increment: Int) throws(HTTP2ProtocolError) {
        // Windows opened a few bytes at a time make this side send a frame per few bytes (the data
        // dribble, CVE-2019-9511): no client reading normally returns less than a small frame's worth.
        if increment > 0 && increment < 128 { try spendControlBudget("tiny WINDOW_UPDATE") }
        if id == 0 {
            guard increment > 0 else { throw .connection(.protocolError, "WINDOW_UPDATE of 0 on the connection") }
            guard sender.window.increase(by: increment) else { throw .connection(.flowControlError, "the connection window above 2^31-1") }
            flushWaiting()
            return
        }
        guard id <= streams.highestStreamID else { throw .connection(.protocolError, "WINDOW_UPDATE on idle stream \(id)") }
        guard let target = streams[id] else {
            try spendControlBudget("WINDOW_UPDATE on a closed stream")
            return
        }
        guard increment > 0 else { throw .stream(id, .protocolError, "WINDOW_UPDATE of 0") }
        guard target.sendWindow.increase(by: increment) else { throw .stream(id, .flowControlError, "the stream window above 2^31-1") }
        flush(target)
    }

    // MARK: - Limits

    func spendControlBudget(_ frame: String) throws(HTTP2ProtocolError) {
        guard !controlBudget.spend(now: clock()) else { return }
        report(.limitExceeded, code: .enhanceYourCalm, reason: "\(frame) flood")
        throw .connection(.enhanceYourCalm, "more than \(limits.controlFrameBurst) control or empty frames, and \(limits.controlFramesPerSecond) a second")
    }

    /// A peer that provokes answers but does not read them (CVE-2019-9512, 9515) is dropped. DATA stops
    /// at `maxConnectionBufferedBytes` plus a frame, so twice that is a backlog of answers alone: a slow
    /// reader of a large body that sends a PING is not mistaken for a flood.
    func checkPeerReads(_ frame: String) throws(HTTP2ProtocolError) {
        guard owner.socketBacklog + sender.output.count > 2 * limits.maxConnectionBufferedBytes else { return }
        report(.limitExceeded, code: .enhanceYourCalm, reason: "\(frame) answers not read")
        throw .connection(.enhanceYourCalm, "the peer does not read what it asks for")
    }

    // MARK: - Answers

    /// A response's head; the owner built `fields` (`HTTP2ResponseFields`).
    func sendHeaders(of target: HTTP2Stream, fields: [(name: String, value: String)], endStream: Bool) {
        target.state.respond()
        sender.sendHeaders(streamID: target.id, fields: fields, endStream: endStream)
        if endStream { responseSent(target) }
    }

    /// Response body bytes (and END_STREAM when `end`), sent as the windows allow, the rest queued.
    func enqueue(_ bytes: [UInt8], on target: HTTP2Stream, end: Bool) {
        guard isOpen(target), target.state.sendsToPeer else { return }
        progressed(target, sender.enqueue(bytes, on: target, end: end, backlog: owner.socketBacklog, now: clock()))
    }

    func flush(_ target: HTTP2Stream) {
        guard isOpen(target), target.state.sendsToPeer else { return }
        progressed(target, sender.flush(target, backlog: owner.socketBacklog, now: clock()))
    }

    private func progressed(_ target: HTTP2Stream, _ progress: HTTP2Sender.Progress) {
        switch progress {
        case .ended: responseSent(target)
        case .stalled: report(.flowControlStall, streamID: target.id)
        case .sent: break
        }
    }

    /// A window opened or the socket drained: the waiting streams go on, oldest first.
    func flushWaiting() {
        for target in sender.takeWaiting() { flush(target) }
    }

    /// Bytes a stream's response holds back for the windows (the slow-consumer policy reads it).
    func waitingBytes(of target: HTTP2Stream) -> Int { target.outbound.count }

    /// Whether END_STREAM is queued behind the stream's waiting bytes.
    func isEnding(_ target: HTTP2Stream) -> Bool { target.state.isEnding }

    /// END_STREAM went out: the response is complete.
    private func responseSent(_ target: HTTP2Stream) {
        if role == .client {
            requestSent(target)
            return
        }
        switch target.state {
        case .halfClosedRemote:
            close(target, as: .ended, completed: true)
        case .open:
            // Answered before the request's body ended (413, 431): the rest is not wanted (RFC 9113 §8.1).
            target.state.localEnded()
            owner.answerEnded(target, completed: true)
            sender.send(HTTP2Frame(streamID: target.id, payload: .rstStream(.noError)))
            close(target, as: .resetLocally)
        case .idle, .halfClosedLocal, .closed:
            break
        }
    }

    /// A request answered without its handler (408, 413, 431): its remaining DATA is dropped, the owner sends the problem.
    func answerWithoutHandler(_ target: HTTP2Stream, _ status: HTTPStatus, detail: String, requestEnds: Bool) {
        target.state.answerEarly(peerEnded: requestEnds)
        target.status = status.code
        owner.answerWithoutHandler(target, status: status, detail: detail)
    }

    // MARK: - The timer's sweep

    /// The timeouts this machine keeps (the preface, request bodies, shut windows, idleness), at
    /// the loop's sweep. The socket's own (write progress, lingering) are its owner's.
    func tick(now: UInt64, timeouts: HTTPTimeouts) {
        guard phase != .failed, phase != .closed else { return }
        if !phase.prefaceComplete && now &- openedAt > timeouts.header.nanoseconds {
            owner.close(.now(failure: "no HTTP/2 preface in time"))
            return
        }
        if bodies.isReceiving {
            let detail = "The request's body was not received within \(timeouts.body.text) of its headers"
            for target in bodies.expired(now: now, after: timeouts.body.nanoseconds) where isOpen(target) {
                owner.bodyTimedOut(target, detail: detail)
                bodies.release(target)
                answerWithoutHandler(target, .requestTimeout, detail: detail, requestEnds: false)
            }
        }
        // A stream whose window stays shut must not pin its buffer for ever.
        for target in sender.scheduler.stalled(now: now, longerThan: timeouts.write.nanoseconds) {
            report(.limitExceeded, streamID: target.id, code: .cancel, reason: "flow-control window shut for longer than the write timeout")
            resetStream(target.id, .cancel, reason: "flow-control window shut for longer than the write timeout")
        }
        // `idleSince` may be later than `now` (a stream closed during this sweep).
        if streams.isEmpty && !receivingHeaderBlock && now > idleSince && now - idleSince > timeouts.idle.nanoseconds {
            closeWhenFlushed()
        }
    }
}
