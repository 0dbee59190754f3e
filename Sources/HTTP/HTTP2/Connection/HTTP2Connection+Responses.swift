import Dispatch
import NetCore
import Streams

/// Running a request stream through the router and writing its response as frames.
extension HTTP2Connection {
    func run(_ target: HTTP2Stream) {
        guard let head = target.requestHead else { return }
        target.requestHead = nil
        let id = RequestID.next(incoming: head.fields["x-request-id"], prefix: context.configuration.requestIDPrefix)
        // The protocol-neutral request, so routes, middleware and handlers see what an HTTP/1.1 exchange gives them.
        var request = Request(
            method: HTTPMethod(head.method), scheme: head.scheme, authority: head.authority, path: head.path, headerFields: head.fields,
            body: target.body, version: .http2, id: id, remoteAddress: stream.remoteAddress, loopScheduler: scheduler)
        request.peerAddress = stream.peerAddress
        target.body = []
        let responses = context.router.route(&request)
        target.request = request
        target.startedAt = .now
        // A synchronous pipeline runs here and now, as on an HTTP/1.1 connection.
        if responses.runSynchronously({ event in
            handlerEvent(event, for: target)
            return false
        }) {
            return
        }
        let subscription = hop.watch(responses) { [self] event in handlerEvent(event, for: target) }
        target.keepHandler(subscription, current: holds(target))
    }

    private func handlerEvent(_ event: Event<Response>, for target: HTTP2Stream) {
        guard holds(target), !target.responded, let request = target.request else { return }
        let response: Response
        switch event {
        case .data(let value):
            response = value
        case .error(let error as any HTTPResponseError):
            response = error.response(instance: request.path)
        case .error(let error):
            response = .problem(status: .internalServerError, detail: "The handler failed: \(error)", instance: request.path)
        case .end:
            response = .problem(status: .internalServerError, detail: "The handler produced no response", instance: request.path)
        }
        target.responded = true
        target.handlerSubscription?.dispose()
        target.handlerSubscription = nil
        respond(with: response, to: target, request: request)
        flushOutput()
    }

    private func respond(with response: Response, to target: HTTP2Stream, request: Request) {
        target.status = response.status.code
        let sendsBody = response.status.allowsBody && request.method != .head
        switch response.body {
        case .bytes(var body):
            var headers = response.headers
            let compressor = context.writer.compressor
            if body.count >= compressor.minimumBytes {
                compressor.compress(&body, headers: &headers, status: response.status, acceptEncoding: request.headers["accept-encoding"])
            }
            let bodyFollows = sendsBody && !body.isEmpty
            sendHeaders(of: target, status: response.status, headers: headers, requestID: request.id,
                        contentLength: response.status.allowsBody ? body.count : nil, endStream: !bodyFollows)
            if bodyFollows {
                target.bodyBytes = body.count
                enqueue(body, on: target, end: true)
            } else {
                responseSent(target)
            }
        case .stream(let chunks):
            sendHeaders(of: target, status: response.status, headers: response.headers, requestID: request.id, contentLength: nil, endStream: !sendsBody)
            guard sendsBody else {
                responseSent(target)
                return
            }
            target.shutdownTrailer = response.shutdownTrailer
            target.bodySubscription = Disposable() // marks the stream as streaming before any chunk arrives
            // Subscribed from a fresh loop turn, as on an HTTP/1.1 connection: a subscription started while
            // the handler's stream is still delivering would belong to that stream's subscription.
            stream.loop.execute { [self] in watchBody(chunks, for: target) }
        }
    }

    private func watchBody(_ chunks: DataStream<[UInt8]>, for target: HTTP2Stream) {
        guard holds(target), !target.finished else { return }
        let subscription = hop.watch(chunks) { [self] event in bodyEvent(event, for: target) }
        if target.keepBody(subscription, current: holds(target)), draining { endStreamForShutdown(target) }
        flushOutput()
    }

    private func bodyEvent(_ event: Event<[UInt8]>, for target: HTTP2Stream) {
        guard holds(target), !target.finished, !target.endAfterOutbound else { return }
        switch event {
        case .data(let bytes):
            guard !bytes.isEmpty else { return }
            target.bodyBytes += bytes.count
            enqueue(bytes, on: target, end: false)
            // The slow-consumer policy, per stream: this stream is reset, the connection's others go on.
            if holds(target),
               let overflow = context.configuration.limits.streamBuffer.overflow(waiting: target.outboundCount, unit: "bytes") {
                resetStream(target.id, .cancel, reason: "slow consumer: \(overflow)")
            }
        case .end:
            enqueue([], on: target, end: true)
        case .error:
            // Mid-body there is no way to report an error: the reset tells the client the body is cut short.
            resetStream(target.id, .internalError, reason: "the response body failed")
        }
        flushSoon()
    }

    /// Graceful shutdown of a streamed response: its trailer (a last SSE event), then its end.
    func endStreamForShutdown(_ target: HTTP2Stream) {
        guard !target.endAfterOutbound, !target.finished else { return }
        target.bodySubscription?.dispose()
        target.bodySubscription = nil
        if let trailer = target.shutdownTrailer, !trailer.isEmpty {
            target.bodyBytes += trailer.count
            enqueue(trailer, on: target, end: true)
        } else {
            enqueue([], on: target, end: true)
        }
    }

    /// A request answered without its handler (408, 413, 431): the problem, and the rest of its body dropped.
    func answerWithoutHandler(_ target: HTTP2Stream, _ status: HTTPStatus, detail: String, requestEnds: Bool) {
        target.discardsBody = true
        target.responded = true
        target.status = status.code
        var problem = Response.problem(status: status, detail: detail)
        problem.headers.add(name: "Cache-Control", value: "no-store")
        let body = problem.bodyBytes ?? []
        if requestEnds && target.state == .open { target.state = .halfClosedRemote }
        sendHeaders(of: target, status: status, headers: problem.headers, requestID: nil, contentLength: body.count, endStream: false)
        enqueue(body, on: target, end: true)
    }

    // MARK: - Frames out

    func sendHeaders(of target: HTTP2Stream, status: HTTPStatus, headers: HTTPHeaders, requestID: String?, contentLength: Int?, endStream: Bool) {
        let fields = HTTP2ResponseFields.fields(
            status: status, headers: headers, contentLength: contentLength, serverName: context.configuration.serverName,
            requestID: requestID, date: date.current)
        var block: [UInt8] = []
        encoder.encode(fields, into: &block)
        // A block larger than the peer's frame size continues in CONTINUATION frames (RFC 9113 §4.3).
        let maxFrame = peer.maxFrameSize
        var offset = 0
        repeat {
            let end = min(offset + maxFrame, block.count)
            let fragment = Array(block[offset..<end])
            let last = end == block.count
            if offset == 0 {
                var flags: HTTP2Flags = endStream ? .endStream : []
                if last { flags.insert(.endHeaders) }
                send(HTTP2Frame(streamID: target.id, flags: flags, payload: .headers(fragment: fragment, dependsOn: nil)))
            } else {
                send(HTTP2Frame(streamID: target.id, flags: last ? .endHeaders : [], payload: .continuation(fragment: fragment)))
            }
            offset = end
        } while offset < block.count
    }

    func enqueue(_ bytes: [UInt8], on target: HTTP2Stream, end: Bool) {
        // Nothing waiting before these bytes and every window takes them whole (a broadcast event on
        // a stream that keeps up): one DATA frame straight into the output, not through `outbound`.
        // The general path below does the same for these bytes; a test compares their bodies.
        if target.outboundCount == 0, !bytes.isEmpty, target.state.sendsToPeer, holds(target),
           bytes.count <= min(target.sendWindow.available, sendWindow.available, peer.maxFrameSize),
           stream.bufferedByteCount + output.count < limits.maxConnectionBufferedBytes {
            target.stalled = false
            HTTP2FrameEncoder.appendData(streamID: target.id, bytes[...], endStream: end, into: &output)
            target.sendWindow.consume(bytes.count)
            sendWindow.consume(bytes.count)
            if end { responseSent(target) }
            return
        }
        enqueueInGeneral(bytes, on: target, end: end)
    }

    /// Queues `bytes` behind what the stream already holds and sends what the windows allow.
    func enqueueInGeneral(_ bytes: [UInt8], on target: HTTP2Stream, end: Bool) {
        if target.outboundCount == 0 && target.outboundStart > 0 {
            target.outbound.removeAll(keepingCapacity: true)
            target.outboundStart = 0
        }
        target.outbound.append(contentsOf: bytes)
        if end { target.endAfterOutbound = true }
        flushStream(target)
    }

    /// Sends what the stream's window, the connection's window and the socket's backlog allow.
    func flushStream(_ target: HTTP2Stream) {
        guard holds(target), target.state.sendsToPeer else { return }
        while target.outboundCount > 0 {
            guard stream.bufferedByteCount + output.count < limits.maxConnectionBufferedBytes else {
                // The socket drains first (`socketDrained`); no more is queued on it meanwhile (CVE-2019-9517).
                block(target)
                return
            }
            let allowed = min(target.sendWindow.available, sendWindow.available, peer.maxFrameSize, target.outboundCount)
            guard allowed > 0 else {
                if !target.stalled {
                    target.stalled = true
                    target.stalledSince = DispatchTime.now().uptimeNanoseconds
                    target.sentSinceStall = 0
                    report(.flowControlStall, streamID: target.id)
                }
                block(target)
                return
            }
            // A window opened a few bytes at a time does not end a stall: its write-timeout clock
            // starts again only after a frame's worth went out (`stallProgressBytes`) or the queue emptied (below).
            if target.stalled {
                target.sentSinceStall += allowed
                if target.sentSinceStall >= limits.stallProgressBytes { target.stalled = false }
            }
            let last = allowed == target.outboundCount && target.endAfterOutbound
            HTTP2FrameEncoder.appendData(
                streamID: target.id, target.outbound[target.outboundStart..<(target.outboundStart + allowed)], endStream: last, into: &output)
            target.sendWindow.consume(allowed)
            sendWindow.consume(allowed)
            target.outboundStart += allowed
            if last {
                responseSent(target)
                return
            }
        }
        target.stalled = false
        if target.outboundStart > 0 {
            target.outbound.removeAll(keepingCapacity: target.outbound.capacity <= 16_384)
            target.outboundStart = 0
        }
        if target.endAfterOutbound {
            HTTP2FrameEncoder.appendData(streamID: target.id, [], endStream: true, into: &output)
            responseSent(target)
        }
    }

    private func block(_ target: HTTP2Stream) {
        guard !target.isBlocked else { return }
        target.isBlocked = true
        blocked.append(target.id)
    }

    /// Window opened or the socket drained: the waiting streams go on, oldest first.
    func flushBlocked() {
        guard !blocked.isEmpty else { return }
        let waiting = blocked
        blocked = []
        for id in waiting {
            guard let target = streams[id] else { continue }
            target.isBlocked = false
            flushStream(target)
        }
    }

    /// END_STREAM went out: the response is complete.
    func responseSent(_ target: HTTP2Stream) {
        guard !target.finished else { return }
        target.finished = true
        target.endAfterOutbound = false
        target.disposeSubscriptions()
        if target.request != nil { reportCompletion(target, completed: true) }
        switch target.state {
        case .halfClosedRemote:
            close(target, as: .ended)
        case .open:
            // Answered before the request's body ended (413, 431): the rest is not wanted (RFC 9113 §8.1).
            target.state = .halfClosedLocal
            send(HTTP2Frame(streamID: target.id, payload: .rstStream(.noError)))
            close(target, as: .resetLocally)
        case .halfClosedLocal, .closed:
            break
        }
    }

    func reportCompletion(_ target: HTTP2Stream, completed: Bool) {
        guard let callback = context.observer.requestCompleted, let request = target.request else { return }
        callback(CompletedRequest(
            method: request.method, path: request.path, target: request.target, routePattern: request.routePattern,
            status: target.status, duration: .now - target.startedAt, bodyBytes: target.bodyBytes,
            requestID: request.id, remoteAddress: request.remoteAddress, userAgent: request.headers["user-agent"],
            completed: completed, protocolLabel: .h2
        ))
    }

    // MARK: - Timeouts and shutdown

    /// Called periodically by the loop's sweep.
    func checkTimeouts(now: UInt64) {
        guard !stream.isClosed else { return }
        let timeouts = context.configuration.timeouts
        if stream.bufferedByteCount > 0 && now &- stream.lastWriteProgress > timeouts.write.nanoseconds {
            stream.close(.failed("write timeout"))
            return
        }
        if let lingering {
            if lingering.isOver(now: now) { stream.close(.local) }
            return
        }
        if !peerSettingsReceived && now &- openedAt > timeouts.header.nanoseconds {
            stream.close(.failed("no HTTP/2 preface in time"))
            return
        }
        if !receivingBodies.isEmpty { timeOutBodies(now: now, after: timeouts.body) }
        // A stream whose window stays shut must not pin its buffer for ever. Only `blocked` streams
        // can be stalled (flushStream blocks every stream it stalls): the sweep runs up to four times
        // a second, and copying every stream of 500 connections × 100 streams each time was a fifth
        // of an idle broadcast server's CPU.
        if !blocked.isEmpty {
            let expired = blocked.filter { id in
                guard let target = streams[id] else { return false }
                return target.stalled && target.outboundCount > 0 && now &- target.stalledSince > timeouts.write.nanoseconds
            }
            for id in expired {
                report(.limitExceeded, streamID: id, code: .cancel, reason: "flow-control window shut for longer than the write timeout")
                resetStream(id, .cancel, reason: "flow-control window shut for longer than the write timeout")
            }
        }
        // `idleSince` may be later than `now` (a stream closed during this sweep).
        if streams.isEmpty && headerBlock == nil && now > idleSince && now - idleSince > timeouts.idle.nanoseconds {
            closeWhenFlushed()
        }
        flushOutput()
    }

    /// Graceful shutdown: GOAWAY with the last stream started, streamed responses end, the close once all are done.
    func beginShutdown() {
        guard !draining, !stream.isClosed else { return }
        draining = true
        if !goAwaySent {
            goAwaySent = true
            send(HTTP2Frame(streamID: 0, payload: .goAway(lastStreamID: highestStreamID, code: .noError, debugData: [])))
            report(.goAwaySent, code: .noError, reason: "shutting down")
        }
        for target in Array(streams.values) where target.isStreaming { endStreamForShutdown(target) }
        if streams.isEmpty { closeWhenFlushed() }
        flushOutput()
    }

    /// The shutdown deadline, as on an HTTP/1.1 connection: a stream its handler has not answered
    /// gets a 503, a streamed response its trailer and end; then the connection closes.
    func deadlineReached() -> ShutdownDeadline.Outcome {
        var outcome = stream.bufferedByteCount > 0 || !streams.isEmpty ? ShutdownDeadline.Outcome.cut : .idle
        for target in streams.values.sorted(by: { $0.id < $1.id }) {
            guard let request = target.request else { continue }
            if !target.responded {
                target.responded = true
                target.disposeSubscriptions()
                respond(
                    with: .problem(status: .serviceUnavailable, detail: "The server is shutting down and this request did not finish in time"),
                    to: target, request: request)
                outcome = .answered
            } else if target.isStreaming {
                endStreamForShutdown(target)
                if outcome != .answered { outcome = .ended }
            }
        }
        flushOutput()
        stream.close(.local)
        return outcome
    }
}
