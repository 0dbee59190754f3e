import StreamServiceConcurrency
import Dispatch
import NetCore
import Streams

/// The server side of one HTTP/2 connection (RFC 9113): reads frames, keeps the stream states and
/// both directions' flow control, runs each request stream through the router exactly as an HTTP/1.1
/// exchange runs, and writes responses as HEADERS and DATA frames within the peer's windows.
/// Frames a read produces are collected and written once at its end.
// @unchecked: confined to its EventLoop's serial queue, which serialises every access the way a lock would.
final class HTTP2Connection: @unchecked Sendable {
    static let preface: [UInt8] = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    let stream: ByteStream
    let context: ServerContext
    let scheduler: EventLoopScheduler
    let date: HTTPDate.LoopCache
    let limits: HTTP2ConnectionLimits
    let hop: LoopHop
    /// Called once, when the socket has closed.
    var onClosed: (() -> Void)?

    var prefaceMatched = 0
    var frames: HTTP2FrameDecoder
    var decoder: HPACKDecoder
    var encoder = HPACKEncoder()
    var peer = HTTP2PeerSettings()
    var peerSettingsReceived = false
    var streams: [UInt32: HTTP2Stream] = [:]
    var closedStreams: [UInt32: HTTP2ClosedStream] = [:]
    var closedOrder: [UInt32] = []
    /// The highest stream id the client has opened (or skipped past); GOAWAY names it.
    var highestStreamID: UInt32 = 0
    /// A header block arriving in CONTINUATION frames.
    var headerBlock: PendingHeaderBlock?
    var sendWindow = HTTP2FlowWindow(65_535)
    var receiveWindow: HTTP2FlowWindow
    var unacknowledgedConnectionBytes = 0
    /// Streams with response bytes waiting for window or for the socket to drain, in arrival order.
    var blocked: [UInt32] = []
    var output: [UInt8] = []
    var writing = false
    /// A `flushOutput` waits for the end of the loop's write batch (`flushSoon`).
    var flushAtBatchEnd = false
    var drainedWhileWriting = false
    var goAwaySent = false
    var draining = false
    /// Streams whose request body is still arriving (HEADERS without END_STREAM): the sweep times
    /// them out (`timeOutBodies`) without visiting the streams that have no body.
    var receivingBodies: [UInt32] = []
    /// Request body bytes this connection's streams hold, and the bound on them (`refuseBeyondBufferedBytes`).
    var bufferedRequestBytes = 0
    let maxBufferedRequestBytes: Int
    var controlBudget: HTTP2AbuseBudget
    var resetBudget: HTTP2AbuseBudget
    var idleSince = DispatchTime.now().uptimeNanoseconds
    let openedAt = DispatchTime.now().uptimeNanoseconds

    struct PendingHeaderBlock {
        let streamID: UInt32
        var fragments: [UInt8]
        let endStream: Bool
        let selfDependent: Bool
        var frameCount: Int
    }

    init(stream: ByteStream, context: ServerContext, scheduler: EventLoopScheduler, date: HTTPDate.LoopCache) {
        self.stream = stream
        self.context = context
        self.scheduler = scheduler
        self.date = date
        limits = context.configuration.http2
        hop = LoopHop(loop: stream.loop)
        frames = HTTP2FrameDecoder(maxFrameSize: limits.maxFrameSize)
        decoder = HPACKDecoder(maxHeaderListSize: limits.maxHeaderListSize, maxStringLength: limits.maxHeaderListSize)
        receiveWindow = HTTP2FlowWindow(limits.connectionWindowSize)
        maxBufferedRequestBytes = Self.maxBufferedRequestBytes(maxBodyBytes: context.configuration.limits.maxBodyBytes, limits: limits)
        controlBudget = HTTP2AbuseBudget(capacity: limits.controlFrameBurst, refillPerSecond: limits.controlFramesPerSecond)
        resetBudget = HTTP2AbuseBudget(capacity: limits.resetBurst, refillPerSecond: limits.resetsPerSecond)
    }

    /// Takes the connection over from the protocol detection, with the bytes read so far.
    func start(with bytes: UnsafeRawBufferPointer) {
        stream.onRead = { [unowned self] bytes in received(bytes) }
        stream.onClose = { [unowned self] _ in closed() }
        stream.onDrained = { [unowned self] in socketDrained() }
        report(.connectionOpened)
        var settings = [
            HTTP2Setting(.maxConcurrentStreams, UInt32(limits.maxConcurrentStreams)),
            HTTP2Setting(.maxHeaderListSize, UInt32(limits.maxHeaderListSize)),
        ]
        if limits.initialWindowSize != 65_535 { settings.append(HTTP2Setting(.initialWindowSize, UInt32(limits.initialWindowSize))) }
        if limits.maxFrameSize != 16_384 { settings.append(HTTP2Setting(.maxFrameSize, UInt32(limits.maxFrameSize))) }
        send(HTTP2Frame(streamID: 0, payload: .settings(settings)))
        if limits.connectionWindowSize > 65_535 {
            send(HTTP2Frame(streamID: 0, payload: .windowUpdate(increment: UInt32(limits.connectionWindowSize - 65_535))))
        }
        received(bytes)
    }

    // MARK: - Reading

    func received(_ bytes: UnsafeRawBufferPointer) {
        // After a connection error's GOAWAY the rest is read and dropped until the close (`lingering`).
        if let lingering {
            if lingering.discard(bytes.count) { stream.close(.local) }
            return
        }
        var bytes = bytes
        if prefaceMatched < Self.preface.count {
            let count = min(bytes.count, Self.preface.count - prefaceMatched)
            for index in 0..<count where bytes[index] != Self.preface[prefaceMatched + index] {
                fail(.connection(.protocolError, "the connection preface is not HTTP/2's"))
                return
            }
            prefaceMatched += count
            bytes = UnsafeRawBufferPointer(rebasing: bytes[count...])
        }
        frames.append(bytes)
        do {
            while !goAwaySentForError, let frame = try frames.next() {
                do {
                    try handle(frame)
                } catch let error where error.streamID != nil {
                    resetStream(error.streamID!, error.code, reason: error.reason)
                }
            }
        } catch {
            fail(error)
        }
        flushOutput()
    }

    /// Set once a connection error's GOAWAY went out: what arrives after it is dropped.
    var goAwaySentForError = false
    /// The lingering close of a connection that failed, as HTTP/1.1's after an error answer: closed at
    /// once, a peer still sending would get a TCP reset, which destroys the GOAWAY in its receive
    /// buffer before it reads the reason.
    var lingering: LingeringClose?

    func handle(_ frame: HTTP2Frame) throws(HTTP2ProtocolError) {
        if headerBlock != nil {
            try continueHeaderBlock(frame)
            return
        }
        if !peerSettingsReceived {
            // The client preface ends with a SETTINGS frame (RFC 9113 §3.4).
            guard case .settings = frame.payload, !frame.flags.contains(.ack) else {
                throw .connection(.protocolError, "the client preface's first frame is not SETTINGS")
            }
            peerSettingsReceived = true
        }
        switch frame.payload {
        case .headers(let fragment, let dependsOn):
            try receivedHeaders(frame, fragment: fragment, dependsOn: dependsOn)
        case .data(let bytes):
            try receivedData(frame, bytes: bytes)
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
            throw .connection(.protocolError, "a client sent PUSH_PROMISE")
        case .ping(let opaque):
            guard !frame.flags.contains(.ack) else { return }
            try spendControlBudget("PING")
            try checkPeerReads("PING")
            send(HTTP2Frame(streamID: 0, flags: .ack, payload: .ping(opaque)))
        case .goAway(_, let code, _):
            report(.goAwayReceived, code: code)
            draining = true
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
        guard id & 1 == 1 else { throw .connection(.protocolError, "HEADERS on even stream \(id), which a client cannot open") }
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
        let decoded: HPACKDecoder.Block
        do { decoded = try decoder.decode(block.fragments) } catch { throw .connection(.compressionError, error.description) }
        if let existing = streams[id] {
            guard existing.state.receivesFromPeer else { throw .stream(id, .streamClosed, "HEADERS after the request's END_STREAM") }
            guard block.endStream else { throw .stream(id, .protocolError, "trailers without END_STREAM") }
            do { try HTTP2RequestHead.validateTrailers(decoded.fields) } catch { throw .stream(id, .protocolError, error.reason) }
            try checkDeclaredLength(of: existing)
            try requestEnded(existing)
            return
        }
        if try ignoresClosed(id, frame: "HEADERS") { return }
        guard id > highestStreamID else {
            throw .connection(.protocolError, "HEADERS opening stream \(id) after stream \(highestStreamID)")
        }
        highestStreamID = id
        if block.selfDependent { throw .stream(id, .protocolError, "stream depends on itself") }
        // After GOAWAY no stream is started (RFC 9113 §6.8); the client retries them elsewhere.
        if goAwaySent { return }
        guard streams.count < limits.maxConcurrentStreams else {
            report(.limitExceeded, streamID: id, code: .refusedStream, reason: "more than \(limits.maxConcurrentStreams) concurrent streams")
            throw .stream(id, .refusedStream, "more than \(limits.maxConcurrentStreams) concurrent streams")
        }
        let opened = HTTP2Stream(id: id, receiveWindow: limits.initialWindowSize, sendWindow: peer.initialWindowSize)
        streams[id] = opened
        report(.streamOpened, streamID: id)
        if decoded.overListSize {
            report(.limitExceeded, streamID: id, reason: "header list above \(limits.maxHeaderListSize) bytes")
            answerWithoutHandler(opened, .requestHeaderFieldsTooLarge, detail: "The header list is larger than \(limits.maxHeaderListSize) bytes", requestEnds: block.endStream)
            return
        }
        do {
            opened.requestHead = try HTTP2RequestHead(validating: decoded.fields)
        } catch {
            throw .stream(id, .protocolError, error.reason)
        }
        opened.declaredContentLength = opened.requestHead?.contentLength
        if block.endStream {
            try checkDeclaredLength(of: opened)
            try requestEnded(opened)
        } else {
            awaitBody(of: opened)
        }
    }

    /// A frame on a stream that is gone: after the peer's reset a stream error, after both
    /// END_STREAMs a connection error, both STREAM_CLOSED (RFC 9113 §5.1); true (ignore it) when
    /// this side reset the stream, false when the stream is not remembered.
    func ignoresClosed(_ id: UInt32, frame: String) throws(HTTP2ProtocolError) -> Bool {
        switch closedStreams[id] {
        case .resetByPeer?: throw .stream(id, .streamClosed, "\(frame) on stream \(id) after its RST_STREAM")
        case .ended?: throw .connection(.streamClosed, "\(frame) on closed stream \(id)")
        case .resetLocally?: return true
        case nil: return false
        }
    }

    // MARK: - DATA

    private func receivedData(_ frame: HTTP2Frame, bytes: [UInt8]) throws(HTTP2ProtocolError) {
        let id = frame.streamID
        let length = frame.flowControlledLength
        guard length <= receiveWindow.value else {
            throw .connection(.flowControlError, "DATA of \(length) bytes beyond the connection window of \(receiveWindow.value)")
        }
        receiveWindow.consume(length)
        returnConnectionWindow(length)
        guard let target = streams[id] else {
            guard id <= highestStreamID else { throw .connection(.protocolError, "DATA on idle stream \(id)") }
            if try ignoresClosed(id, frame: "DATA") { return }
            throw .stream(id, .streamClosed, "DATA on closed stream \(id)")
        }
        guard target.state.receivesFromPeer else { throw .stream(id, .streamClosed, "DATA after the request's END_STREAM") }
        guard length <= target.receiveWindow.value else {
            throw .stream(id, .flowControlError, "DATA of \(length) bytes beyond the stream window of \(target.receiveWindow.value)")
        }
        target.receiveWindow.consume(length)
        if bytes.isEmpty && !frame.endStream { try spendControlBudget("empty DATA") }
        if !target.discardsBody {
            target.body.append(contentsOf: bytes)
            target.heldBodyBytes += bytes.count
            bufferedRequestBytes += bytes.count
            if let declared = target.declaredContentLength, target.body.count > declared {
                throw .stream(id, .protocolError, "DATA beyond the content-length of \(declared)")
            }
            if target.body.count > context.configuration.limits.maxBodyBytes {
                releaseBody(of: target)
                answerWithoutHandler(target, .payloadTooLarge, detail: "The request body is larger than \(context.configuration.limits.maxBodyBytes) bytes", requestEnds: frame.endStream)
                return
            }
            try refuseBeyondBufferedBytes(target)
        }
        if frame.endStream {
            try checkDeclaredLength(of: target)
            try requestEnded(target)
        } else {
            target.unacknowledgedBytes += length
            if target.unacknowledgedBytes >= limits.initialWindowSize / 2 {
                send(HTTP2Frame(streamID: id, payload: .windowUpdate(increment: UInt32(target.unacknowledgedBytes))))
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
        send(HTTP2Frame(streamID: 0, payload: .windowUpdate(increment: UInt32(unacknowledgedConnectionBytes))))
        _ = receiveWindow.increase(by: unacknowledgedConnectionBytes)
        unacknowledgedConnectionBytes = 0
    }

    /// The client's request is complete (END_STREAM): the handler runs now.
    private func requestEnded(_ target: HTTP2Stream) throws(HTTP2ProtocolError) {
        switch target.state {
        case .open: target.state = .halfClosedRemote
        case .halfClosedLocal:
            close(target, as: .ended)
            return
        case .halfClosedRemote, .closed: return
        }
        if target.discardsBody { return }
        run(target)
    }

    // MARK: - RST_STREAM, SETTINGS, WINDOW_UPDATE

    private func receivedReset(_ id: UInt32, code: HTTP2ErrorCode) throws(HTTP2ProtocolError) {
        guard id <= highestStreamID else { throw .connection(.protocolError, "RST_STREAM on idle stream \(id)") }
        guard let target = streams[id] else {
            // Allowed for a while after the stream's end (§5.1), and ignored, but each costs like a control frame.
            try spendControlBudget("RST_STREAM on a closed stream")
            return
        }
        report(.resetReceived, streamID: id, code: code)
        if !target.finished && !resetBudget.spend() {
            report(.limitExceeded, streamID: id, code: .enhanceYourCalm, reason: "rapid reset")
            throw .connection(.enhanceYourCalm, "more than \(limits.resetBurst) streams reset before their response, and \(limits.resetsPerSecond) a second")
        }
        // As a closed HTTP/1.1 connection does: the stream's pipeline is disposed.
        close(target, as: .resetByPeer)
    }

    private func receivedSettings(_ settings: [HTTP2Setting]) throws(HTTP2ProtocolError) {
        let oldWindow = peer.initialWindowSize
        for setting in settings { try peer.apply(setting) }
        encoder.setMaxTableSize(min(peer.headerTableSize, 4096))
        let delta = peer.initialWindowSize - oldWindow
        if delta != 0 {
            for target in streams.values where !target.sendWindow.increase(by: delta) {
                throw .connection(.flowControlError, "SETTINGS_INITIAL_WINDOW_SIZE takes stream \(target.id)'s window above 2^31-1")
            }
        }
        try checkPeerReads("SETTINGS")
        send(HTTP2Frame(streamID: 0, flags: .ack, payload: .settings([])))
        if delta > 0 { flushBlocked() }
    }

    private func receivedWindowUpdate(_ id: UInt32, increment: Int) throws(HTTP2ProtocolError) {
        // Windows opened a few bytes at a time make this side send a frame per few bytes (the data
        // dribble, CVE-2019-9511): no client reading normally returns less than a small frame's worth.
        if increment > 0 && increment < 128 { try spendControlBudget("tiny WINDOW_UPDATE") }
        if id == 0 {
            guard increment > 0 else { throw .connection(.protocolError, "WINDOW_UPDATE of 0 on the connection") }
            guard sendWindow.increase(by: increment) else { throw .connection(.flowControlError, "the connection window above 2^31-1") }
            flushBlocked()
            return
        }
        guard id <= highestStreamID else { throw .connection(.protocolError, "WINDOW_UPDATE on idle stream \(id)") }
        guard let target = streams[id] else {
            try spendControlBudget("WINDOW_UPDATE on a closed stream")
            return
        }
        guard increment > 0 else { throw .stream(id, .protocolError, "WINDOW_UPDATE of 0") }
        guard target.sendWindow.increase(by: increment) else { throw .stream(id, .flowControlError, "the stream window above 2^31-1") }
        flushStream(target)
    }

    // MARK: - Limits

    func spendControlBudget(_ frame: String) throws(HTTP2ProtocolError) {
        guard !controlBudget.spend() else { return }
        report(.limitExceeded, code: .enhanceYourCalm, reason: "\(frame) flood")
        throw .connection(.enhanceYourCalm, "more than \(limits.controlFrameBurst) control or empty frames, and \(limits.controlFramesPerSecond) a second")
    }

    /// A peer that provokes answers but does not read them (CVE-2019-9512, 9515) is dropped. DATA stops
    /// at `maxConnectionBufferedBytes` plus a frame, so twice that is a backlog of answers alone: a slow
    /// reader of a large body that sends a PING is not mistaken for a flood.
    func checkPeerReads(_ frame: String) throws(HTTP2ProtocolError) {
        guard stream.bufferedByteCount + output.count > 2 * limits.maxConnectionBufferedBytes else { return }
        report(.limitExceeded, code: .enhanceYourCalm, reason: "\(frame) answers not read")
        throw .connection(.enhanceYourCalm, "the peer does not read what it asks for")
    }

    // MARK: - Errors, output, close

    func send(_ frame: HTTP2Frame) {
        HTTP2FrameEncoder.append(frame, into: &output)
    }

    /// Writes the frames collected so far. The socket may report itself drained from inside the
    /// write (a TLS flush sends at once); the streams waiting for it go on after the write returns.
    func flushOutput() {
        guard !writing else { return }
        writing = true
        while !output.isEmpty {
            var pending: [UInt8] = []
            swap(&pending, &output)
            stream.write(pending)
            if output.isEmpty && pending.capacity <= 65_536 {
                pending.removeAll(keepingCapacity: true)
                output = pending
            }
            if drainedWhileWriting {
                drainedWhileWriting = false
                flushBlocked()
            }
        }
        writing = false
    }

    /// `flushOutput` at the end of the loop's write batch when one runs (a broadcast delivering to
    /// many of this connection's streams: all their frames leave in one write), else now.
    func flushSoon() {
        guard !flushAtBatchEnd else { return }
        if stream.loop.whenBatchEnds({ [self] in
            flushAtBatchEnd = false
            flushOutput()
        }) {
            flushAtBatchEnd = true
        } else {
            flushOutput()
        }
    }

    func socketDrained() {
        guard !writing else {
            drainedWhileWriting = true
            return
        }
        flushBlocked()
        flushOutput()
    }

    /// A stream error: RST_STREAM, and the stream is closed.
    func resetStream(_ id: UInt32, _ code: HTTP2ErrorCode, reason: String) {
        send(HTTP2Frame(streamID: id, payload: .rstStream(code)))
        report(.resetSent, streamID: id, code: code, reason: reason)
        if let target = streams[id] {
            close(target, as: .resetLocally)
        } else {
            remember(id, as: .resetLocally)
        }
        // Resets this side is made to send count too (CVE-2019-9514).
        if !controlBudget.spend() {
            report(.limitExceeded, code: .enhanceYourCalm, reason: "reset flood")
            fail(.connection(.enhanceYourCalm, "the peer provokes more than \(limits.controlFrameBurst) stream errors"))
        }
    }

    /// A connection error: GOAWAY with the error, then the close (RFC 9113 §5.4.1).
    func fail(_ error: HTTP2ProtocolError) {
        guard !goAwaySentForError else { return }
        goAwaySentForError = true
        goAwaySent = true
        send(HTTP2Frame(streamID: 0, payload: .goAway(lastStreamID: highestStreamID, code: error.code, debugData: Array(error.reason.utf8.prefix(256)))))
        report(.goAwaySent, code: error.code, reason: error.reason)
        flushOutput()
        for target in Array(streams.values) { close(target, as: .resetLocally) }
        lingerThenClose()
    }

    /// Half-closes once the GOAWAY is sent, then reads and drops until the peer closes or
    /// `LingeringClose`'s bounds pass (TLS closes after the flush: its close_notify ends it).
    private func lingerThenClose() {
        guard !stream.isTLS else { stream.closeAfterFlush(); return }
        lingering = LingeringClose(now: DispatchTime.now().uptimeNanoseconds)
        if stream.bufferedByteCount == 0 {
            stream.socket.shutdownWrite()
        } else {
            stream.onDrained = { [unowned self] in stream.socket.shutdownWrite() }
        }
    }

    /// Whether `target` is still one of this connection's streams. A stream is in `streams` from its
    /// HEADERS until `close`, which also marks it closed, so its state answers without a hash lookup:
    /// a broadcast event asked three times per stream, each a likely cache miss among 50,000 streams.
    /// Debug builds (the tests) check that both answers agree.
    func holds(_ target: HTTP2Stream) -> Bool {
        assert((streams[target.id] === target) == (target.state != .closed), "stream \(target.id): its state and the stream table disagree")
        return target.state != .closed
    }

    func close(_ target: HTTP2Stream, as how: HTTP2ClosedStream) {
        guard streams[target.id] === target else { return }
        streams[target.id] = nil
        target.state = .closed
        releaseBody(of: target)
        target.disposeSubscriptions()
        target.outbound = []
        target.outboundStart = 0
        if !target.finished {
            target.finished = true
            if target.request != nil { reportCompletion(target, completed: false) }
        }
        remember(target.id, as: how)
        report(.streamClosed, streamID: target.id)
        if streams.isEmpty {
            idleSince = DispatchTime.now().uptimeNanoseconds
            if draining { closeWhenFlushed() }
        }
    }

    private func remember(_ id: UInt32, as how: HTTP2ClosedStream) {
        if closedStreams.updateValue(how, forKey: id) == nil { closedOrder.append(id) }
        if closedOrder.count > limits.closedStreamMemory {
            let forget = closedOrder.count - limits.closedStreamMemory / 2
            for old in closedOrder.prefix(forget) { closedStreams[old] = nil }
            closedOrder.removeFirst(forget)
        }
    }

    func closeWhenFlushed() {
        if !goAwaySent {
            goAwaySent = true
            send(HTTP2Frame(streamID: 0, payload: .goAway(lastStreamID: highestStreamID, code: .noError, debugData: [])))
            report(.goAwaySent, code: .noError)
        }
        flushOutput()
        stream.closeAfterFlush()
    }

    private func closed() {
        for target in Array(streams.values) { close(target, as: .resetLocally) }
        report(.connectionClosed)
        let onClosed = self.onClosed
        self.onClosed = nil
        onClosed?()
    }

    func report(_ kind: HTTP2Event.Kind, streamID: UInt32 = 0, code: HTTP2ErrorCode? = nil, reason: String? = nil) {
        context.observer.http2Event?(HTTP2Event(kind: kind, remoteAddress: stream.remoteAddress, streamID: streamID, code: code, reason: reason))
    }
}
