// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Dispatch

/// One HTTP/2 connection's protocol state (RFC 9113), with no socket: frames in, frames out (into
/// `output`, which the socket's owner writes), and what the frames ask for handed to its
/// `HTTP2ConnectionOwner` (start a request, end an answer, close). Its phase is one
/// `HTTP2ConnectionPhase`; its streams, request bodies and sending each a part of their own.
// @unchecked: confined to its connection's EventLoop queue, which serialises every access the way a lock would.
final class HTTP2ConnectionStateMachine: @unchecked Sendable {
    static let preface: [UInt8] = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    private struct PendingHeaderBlock {
        let streamID: UInt32
        var fragments: [UInt8]
        let endStream: Bool
        let selfDependent: Bool
        var frameCount: Int
    }

    unowned(unsafe) let owner: any HTTP2ConnectionOwner
    let role: HTTP2Role
    let limits: HTTP2ConnectionLimits
    let clock: () -> UInt64
    // The state below is the loop's alone, and no change of it calls out to the owner while it
    // lasts (the parts' mutating methods never do): it skips run-time exclusivity checks, about 20
    // instructions an access and a dozen accesses a stream (the figure: Benchmarks/README.md).
    @exclusivity(unchecked) private(set) var phase: HTTP2ConnectionPhase
    @exclusivity(unchecked) private var frames: HTTP2FrameDecoder
    // Internal, not private, where the client role decodes a response's block (`+Client`).
    @exclusivity(unchecked) var decoder: HPACKDecoder
    @exclusivity(unchecked) var peer = HTTP2PeerSettings()
    // Settable here and where the client role opens its streams (`+Client`).
    @exclusivity(unchecked) var streams: HTTP2StreamTable
    // Internal, not private, where the other half in `+Control` changes them (its own file for length).
    @exclusivity(unchecked) var sender: HTTP2Sender
    @exclusivity(unchecked) var bodies: HTTP2RequestBodies
    /// A header block arriving in CONTINUATION frames.
    @exclusivity(unchecked) private var headerBlock: PendingHeaderBlock?
    var receivingHeaderBlock: Bool { headerBlock != nil }
    @exclusivity(unchecked) private(set) var receiveWindow: HTTP2FlowWindow
    @exclusivity(unchecked) private var unacknowledgedConnectionBytes = 0
    @exclusivity(unchecked) var controlBudget: HTTP2AbuseBudget
    @exclusivity(unchecked) var resetBudget: HTTP2AbuseBudget
    /// When the last stream closed (or the connection opened): the idle timeout runs from here.
    @exclusivity(unchecked) private(set) var idleSince: UInt64
    let openedAt: UInt64

    /// `clock` gives the time in nanoseconds (tests pass their own).
    init(owner: any HTTP2ConnectionOwner, role: HTTP2Role = .server, limits: HTTP2ConnectionLimits, maxBodyBytes: Int,
         clock: @escaping () -> UInt64 = { DispatchTime.now().uptimeNanoseconds }) {
        self.owner = owner
        self.role = role
        self.limits = limits
        self.clock = clock
        phase = role == .server ? .awaitingPreface(matched: 0) : .awaitingSettings
        frames = HTTP2FrameDecoder(maxFrameSize: limits.maxFrameSize)
        // A client's answers repeat literals (`date`, an unindexed name): its decoder keeps them.
        decoder = HPACKDecoder(maxHeaderListSize: limits.maxHeaderListSize, maxStringLength: limits.maxHeaderListSize, memoizesLiterals: role == .client)
        streams = HTTP2StreamTable(memory: limits.closedStreamMemory)
        sender = HTTP2Sender(limits: limits)
        bodies = HTTP2RequestBodies(maxBodyBytes: maxBodyBytes, limits: limits)
        receiveWindow = HTTP2FlowWindow(limits.connectionWindowSize)
        let now = clock()
        controlBudget = HTTP2AbuseBudget(capacity: limits.controlFrameBurst, refillPerSecond: limits.controlFramesPerSecond, now: now)
        resetBudget = HTTP2AbuseBudget(capacity: limits.resetBurst, refillPerSecond: limits.resetsPerSecond, now: now)
        idleSince = now
        openedAt = now
    }

    /// The frames collected so far, for the socket; `buffer` (emptied) takes their place.
    func swapOutput(_ buffer: inout [UInt8]) { sender.swapOutput(&buffer) }
    var outputCount: Int { sender.output.count }

    // MARK: - Input

    /// Bytes read from the peer: the preface, then frames.
    func receive(_ bytes: UnsafeRawBufferPointer) {
        guard phase != .failed, phase != .closed else { return }
        var bytes = bytes
        if case .awaitingPreface(let matched) = phase {
            let count = min(bytes.count, Self.preface.count - matched)
            for index in 0..<count where bytes[index] != Self.preface[matched + index] {
                fail(.connection(.protocolError, "the connection preface is not HTTP/2's"))
                return
            }
            phase = matched + count == Self.preface.count ? .awaitingSettings : .awaitingPreface(matched: matched + count)
            bytes = UnsafeRawBufferPointer(rebasing: bytes[count...])
        }
        do {
            try frames.frames(in: bytes) { header, payload in
                receive(header, payload: payload)
                return phase != .failed
            }
        } catch {
            fail(error)
        }
    }

    /// One frame where its bytes lie: a response's HEADERS (the whole block, unpadded, no
    /// priority) decoded there, and unpadded DATA copied once into the body; any other frame made
    /// an `HTTP2Frame` and handled by `receive(_:)`, the slow twin, which takes every frame the same
    /// way (HTTP2ClientRandomFramesTests and HTTP2RandomFramesTests feed both and compare).
    private func receive(_ header: HTTP2FrameDecoder.Header, payload: UnsafeRawBufferPointer) {
        guard phase != .failed, phase != .closed else { return }
        if headerBlock == nil, phase == .active, header.streamID != 0, !header.flags.contains(.padded) {
            let endStream = header.flags.contains(.endStream)
            do {
                if header.type == .headers, role == .client, header.flags.contains(.endHeaders), !header.flags.contains(.priority) {
                    try checkResponseHeadersStream(header.streamID)
                    try responseHeaderBlock(header.streamID, block: payload.assumingMemoryBound(to: UInt8.self), endStream: endStream)
                    return
                }
                if header.type == .data {
                    try receivedData(header.streamID, bytes: Array(payload), flowControlledLength: payload.count, endStream: endStream)
                    return
                }
            } catch let error where error.streamID != nil {
                resetStream(error.streamID!, error.code, reason: error.reason)
                return
            } catch {
                fail(error)
                return
            }
        }
        let frame: HTTP2Frame
        do {
            frame = try HTTP2FrameDecoder.frame(type: header.type, flags: header.flags, streamID: header.streamID, payload: Array(payload))
        } catch {
            fail(error)
            return
        }
        receive(frame)
    }

    /// One decoded frame: a stream error resets its stream, a connection error fails the connection.
    func receive(_ frame: HTTP2Frame) {
        guard phase != .failed, phase != .closed else { return }
        do {
            try handle(frame)
        } catch let error where error.streamID != nil {
            resetStream(error.streamID!, error.code, reason: error.reason)
        } catch {
            fail(error)
        }
    }

    private func handle(_ frame: HTTP2Frame) throws(HTTP2ProtocolError) {
        if headerBlock != nil {
            try continueHeaderBlock(frame)
            return
        }
        if phase == .awaitingSettings {
            // The preface ends with a SETTINGS frame (RFC 9113 §3.4).
            guard case .settings = frame.payload, !frame.flags.contains(.ack) else {
                throw .connection(.protocolError, "the client preface's first frame is not SETTINGS")
            }
            phase = .active
        } else if case .awaitingPreface = phase {
            throw .connection(.protocolError, "a frame before the connection preface")
        }
        switch frame.payload {
        case .headers(let fragment, let dependsOn):
            try receivedHeaders(frame, fragment: fragment, dependsOn: dependsOn)
        case .data(let bytes):
            try receivedData(frame.streamID, bytes: bytes, flowControlledLength: frame.flowControlledLength, endStream: frame.endStream)
        case .priority(let dependsOn):
            try spendControlBudget("PRIORITY")
            guard dependsOn != frame.streamID else { throw .stream(frame.streamID, .protocolError, "stream depends on itself") }
        case .rstStream(let code):
            try receivedReset(frame.streamID, code: code)
        case .settings(let settings):
            guard !frame.flags.contains(.ack) else { return }
            try spendControlBudget("SETTINGS")
            try receivedSettings(settings)
        case .pushPromise:
            // A server never receives it; this client turns push off in its SETTINGS (RFC 9113 §8.4).
            throw .connection(.protocolError, role == .server ? "a client sent PUSH_PROMISE" : "PUSH_PROMISE although push is off")
        case .ping(let opaque):
            guard !frame.flags.contains(.ack) else { return }
            try spendControlBudget("PING")
            try checkPeerReads("PING")
            sender.send(HTTP2Frame(streamID: 0, flags: .ack, payload: .ping(opaque)))
        case .goAway(let lastStreamID, let code, _):
            // The client hears which of its streams the server will not process (§6.8): the report
            // names the last one, and the streams above it close now, for the owner to retry.
            report(.goAwayReceived, streamID: role == .client ? lastStreamID : 0, code: code)
            if role == .client { closeStreams(above: lastStreamID) }
            if case .active = phase { phase = .draining(goAwaySent: nil) }
            if streams.isEmpty { closeWhenFlushed() }
        case .windowUpdate(let increment):
            try receivedWindowUpdate(frame.streamID, increment: Int(increment))
        case .continuation:
            throw .connection(.protocolError, "CONTINUATION without a HEADERS frame before it")
        case .unknown:
            // Ignored (RFC 9113 §5.5), but not for free: a flood of them is one more frame flood.
            try spendControlBudget("unknown frame")
        }
    }

    // MARK: - Header blocks

    private func receivedHeaders(_ frame: HTTP2Frame, fragment: [UInt8], dependsOn: UInt32?) throws(HTTP2ProtocolError) {
        let id = frame.streamID
        if role == .server {
            guard role.peerOpens(id) else { throw .connection(.protocolError, "HEADERS on stream \(id), which the peer cannot open") }
        } else {
            try checkResponseHeadersStream(id)
        }
        if fragment.isEmpty && !frame.endHeaders { try spendControlBudget("empty HEADERS") }
        let block = PendingHeaderBlock(
            streamID: id, fragments: fragment, endStream: frame.endStream, selfDependent: dependsOn == id, frameCount: 0)
        if frame.endHeaders {
            try headerBlockComplete(block)
        } else {
            headerBlock = block
        }
    }

    private func continueHeaderBlock(_ frame: HTTP2Frame) throws(HTTP2ProtocolError) {
        guard var block = headerBlock, case .continuation(let fragment) = frame.payload, frame.streamID == block.streamID else {
            throw .connection(.protocolError, "a frame other than CONTINUATION of stream \(headerBlock?.streamID ?? 0) inside its header block")
        }
        block.frameCount += 1
        block.fragments.append(contentsOf: fragment)
        guard block.frameCount <= limits.maxContinuationFrames, block.fragments.count <= limits.maxHeaderListSize * 2 else {
            report(.limitExceeded, streamID: block.streamID, code: .enhanceYourCalm, reason: "CONTINUATION flood")
            throw .connection(.enhanceYourCalm, "a header block of more than \(limits.maxContinuationFrames) CONTINUATION frames or \(limits.maxHeaderListSize * 2) bytes")
        }
        if fragment.isEmpty && !frame.endHeaders { try spendControlBudget("empty CONTINUATION") }
        if frame.endHeaders {
            headerBlock = nil
            try headerBlockComplete(block)
        } else {
            headerBlock = block
        }
    }

    private func headerBlockComplete(_ block: PendingHeaderBlock) throws(HTTP2ProtocolError) {
        let id = block.streamID
        // Decoded whatever becomes of the stream: the table must stay in step with the peer's (RFC 9113 §4.3).
        if role == .client {
            try block.fragments.withUnsafeBufferPointer { (bytes) throws(HTTP2ProtocolError) in
                try responseHeaderBlock(id, block: bytes, endStream: block.endStream)
            }
            return
        }
        let decoded: HPACKDecoder.Block
        do { decoded = try decoder.decode(block.fragments) } catch { throw .connection(.compressionError, error.description) }
        if let existing = streams[id] {
            guard existing.state.receivesFromPeer else { throw .stream(id, .streamClosed, "HEADERS after the request's END_STREAM") }
            guard block.endStream else { throw .stream(id, .protocolError, "trailers without END_STREAM") }
            do { try HTTP2RequestHead.validateTrailers(decoded.fields, checked: decoded.checkedFields) } catch { throw .stream(id, .protocolError, error.reason) }
            try HTTP2RequestBodies.checkDeclaredLength(of: existing)
            requestEnded(existing)
            return
        }
        if try streams.ignoresClosed(id, frame: "HEADERS") { return }
        guard id > streams.highestStreamID else {
            throw .connection(.protocolError, "HEADERS opening stream \(id) after stream \(streams.highestStreamID)")
        }
        streams.highestStreamID = id
        if block.selfDependent { throw .stream(id, .protocolError, "stream depends on itself") }
        // After GOAWAY no stream is started (RFC 9113 §6.8); the client retries them elsewhere.
        if phase.goAwaySent { return }
        guard streams.count < limits.maxConcurrentStreams else {
            report(.limitExceeded, streamID: id, code: .refusedStream, reason: "more than \(limits.maxConcurrentStreams) concurrent streams")
            throw .stream(id, .refusedStream, "more than \(limits.maxConcurrentStreams) concurrent streams")
        }
        let opened = HTTP2Stream(id: id, receiveWindow: limits.initialWindowSize, sendWindow: peer.initialWindowSize)
        streams.insert(opened)
        report(.streamOpened, streamID: id)
        if decoded.overListSize {
            report(.limitExceeded, streamID: id, reason: "header list above \(limits.maxHeaderListSize) bytes")
            answerWithoutHandler(opened, .requestHeaderFieldsTooLarge, detail: "The header list is larger than \(limits.maxHeaderListSize) bytes", requestEnds: block.endStream)
            return
        }
        do {
            opened.requestHead = try HTTP2RequestHead(validating: decoded.fields, checked: decoded.checkedFields)
        } catch {
            throw .stream(id, .protocolError, error.reason)
        }
        opened.declaredContentLength = opened.requestHead?.contentLength
        if block.endStream {
            try HTTP2RequestBodies.checkDeclaredLength(of: opened)
            requestEnded(opened)
        } else {
            bodies.awaitBody(of: opened, now: clock())
        }
    }

    // MARK: - DATA

    /// `length`: the frame's payload, padding included (flow control counts it, §6.1).
    private func receivedData(_ id: UInt32, bytes: [UInt8], flowControlledLength length: Int, endStream: Bool) throws(HTTP2ProtocolError) {
        guard length <= receiveWindow.value else {
            throw .connection(.flowControlError, "DATA of \(length) bytes beyond the connection window of \(receiveWindow.value)")
        }
        receiveWindow.consume(length)
        returnConnectionWindow(length)
        guard let target = streams[id] else {
            guard id <= streams.highestStreamID else { throw .connection(.protocolError, "DATA on idle stream \(id)") }
            if try streams.ignoresClosed(id, frame: "DATA") { return }
            throw .stream(id, .streamClosed, "DATA on closed stream \(id)")
        }
        guard target.state.receivesFromPeer else { throw .stream(id, .streamClosed, "DATA after the request's END_STREAM") }
        if target.state.awaitsPeerHead { throw .stream(id, .protocolError, "DATA before the response's HEADERS") }
        guard length <= target.receiveWindow.value else {
            throw .stream(id, .flowControlError, "DATA of \(length) bytes beyond the stream window of \(target.receiveWindow.value)")
        }
        target.receiveWindow.consume(length)
        if bytes.isEmpty && !endStream { try spendControlBudget("empty DATA") }
        if !target.state.discardsInbound {
            bodies.hold(bytes, for: target)
            if let declared = target.declaredContentLength, target.body.count > declared {
                throw .stream(id, .protocolError, "DATA beyond the content-length of \(declared)")
            }
            if target.body.count > bodies.maxBodyBytes {
                if role == .client { throw .stream(id, .cancel, "a response body above \(bodies.maxBodyBytes) bytes") }
                bodies.release(target)
                answerWithoutHandler(target, .payloadTooLarge, detail: "The request body is larger than \(bodies.maxBodyBytes) bytes", requestEnds: endStream)
                return
            }
            if bodies.overBound {
                let reason = "more than \(bodies.maxBufferedBytes) buffered request bytes on the connection"
                report(.limitExceeded, streamID: target.id, code: .refusedStream, reason: reason)
                throw .stream(target.id, .refusedStream, reason)
            }
        }
        if endStream {
            try HTTP2RequestBodies.checkDeclaredLength(of: target)
            requestEnded(target)
        } else {
            target.unacknowledgedBytes += length
            if target.unacknowledgedBytes >= limits.initialWindowSize / 2 {
                sender.send(HTTP2Frame(streamID: id, payload: .windowUpdate(increment: UInt32(target.unacknowledgedBytes))))
                _ = target.receiveWindow.increase(by: target.unacknowledgedBytes)
                target.unacknowledgedBytes = 0
            }
        }
    }

    /// Every DATA byte counts against the connection window, whatever its stream's state (§6.9):
    /// returned once half of it is used.
    private func returnConnectionWindow(_ length: Int) {
        unacknowledgedConnectionBytes += length
        guard unacknowledgedConnectionBytes >= limits.connectionWindowSize / 2 else { return }
        sender.send(HTTP2Frame(streamID: 0, payload: .windowUpdate(increment: UInt32(unacknowledgedConnectionBytes))))
        _ = receiveWindow.increase(by: unacknowledgedConnectionBytes)
        unacknowledgedConnectionBytes = 0
    }

    /// The peer's request is complete (END_STREAM): the handler runs now.
    private func requestEnded(_ target: HTTP2Stream) {
        if role == .client {
            responseEnded(target)
            return
        }
        let runs = target.state == .openedByPeer
        switch target.state {
        case .open: target.state.peerEnded()
        case .halfClosedLocal:
            close(target, as: .ended)
            return
        case .idle, .halfClosedRemote, .closed: return
        }
        // A stream answered without its handler (its body dropped) runs none.
        if runs { owner.startRequest(target) }
    }

    // MARK: - Errors and closing

    /// A stream error: RST_STREAM, and the stream is closed.
    func resetStream(_ id: UInt32, _ code: HTTP2ErrorCode, reason: String) {
        sender.send(HTTP2Frame(streamID: id, payload: .rstStream(code)))
        report(.resetSent, streamID: id, code: code, reason: reason)
        if let target = streams[id] {
            close(target, as: .resetLocally)
        } else {
            streams.remember(id, as: .resetLocally)
        }
        // Resets this side is made to send count too (CVE-2019-9514).
        if !controlBudget.spend(now: clock()) {
            report(.limitExceeded, code: .enhanceYourCalm, reason: "reset flood")
            fail(.connection(.enhanceYourCalm, "the peer provokes more than \(limits.controlFrameBurst) stream errors"))
        }
    }

    /// A connection error: GOAWAY with the error, then the close (RFC 9113 §5.4.1).
    func fail(_ error: HTTP2ProtocolError) {
        guard phase != .failed, phase != .closed else { return }
        phase = .failed
        sender.send(HTTP2Frame(streamID: 0, payload: .goAway(lastStreamID: goAwayLastStreamID, code: error.code, debugData: Array(error.reason.utf8.prefix(256)))))
        report(.goAwaySent, code: error.code, reason: error.reason)
        for target in streams.ordered { close(target, as: .resetLocally) }
        owner.close(.lingerAfterFlush)
    }

    /// Takes a stream out of the table; an answer that had not ended is reported, as `completed`
    /// when its END_STREAM is what closed the stream.
    func close(_ target: HTTP2Stream, as how: HTTP2StreamEnding, completed: Bool = false) {
        guard streams.remove(target, as: how) else { return }
        // What the owner is waiting for: a server's answer going out, a client's response coming in.
        let answering = role == .server ? target.state.sendsToPeer : target.state.receivesFromPeer
        target.state = .closed(how)
        bodies.release(target)
        target.outbound.clear()
        if answering { owner.answerEnded(target, completed: completed) }
        report(.streamClosed, streamID: target.id)
        if streams.isEmpty {
            idleSince = clock()
            if phase.isDraining { closeWhenFlushed() }
        }
    }

    /// GOAWAY NO_ERROR unless one went out, then the close once the output is flushed.
    func closeWhenFlushed() {
        if !phase.goAwaySent {
            sender.send(HTTP2Frame(streamID: 0, payload: .goAway(lastStreamID: goAwayLastStreamID, code: .noError, debugData: [])))
            report(.goAwaySent, code: .noError)
        }
        if phase != .failed { phase = .closing }
        owner.close(.afterFlush)
    }

    /// Graceful shutdown: GOAWAY with the last stream started, streamed responses end, the close once all are done.
    func beginShutdown() {
        switch phase {
        case .draining, .closed: return
        case .failed:
            // Its lingering close is cut short: the server is going.
            owner.close(.afterFlush)
            return
        case .closing:
            closeWhenFlushed()
            return
        case .awaitingPreface, .awaitingSettings, .active:
            break
        }
        sender.send(HTTP2Frame(streamID: 0, payload: .goAway(lastStreamID: goAwayLastStreamID, code: .noError, debugData: [])))
        report(.goAwaySent, code: .noError, reason: "shutting down")
        phase = .draining(goAwaySent: streams.highestStreamID)
        for target in streams.ordered where target.isStreaming { owner.endForShutdown(target) }
        if streams.isEmpty { closeWhenFlushed() }
    }

    /// The socket closed: every stream with it.
    func closed() {
        for target in streams.ordered { close(target, as: .resetLocally) }
        phase = .closed
    }
}
