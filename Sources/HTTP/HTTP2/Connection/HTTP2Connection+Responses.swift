import Dispatch
import NetCore
import Streams

/// Running a request stream through the router and writing its response as frames.
extension HTTP2Connection {
    func startRequest(_ target: HTTP2Stream) {
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
        target.keepHandler(subscription, current: machine.isOpen(target))
    }

    private func handlerEvent(_ event: Event<Response>, for target: HTTP2Stream) {
        guard machine.isOpen(target), !target.responded, let request = target.request else { return }
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
                machine.enqueue(body, on: target, end: true)
            }
        case .stream(let chunks):
            sendHeaders(of: target, status: response.status, headers: response.headers, requestID: request.id, contentLength: nil, endStream: !sendsBody)
            guard sendsBody else { return }
            target.shutdownTrailer = response.shutdownTrailer
            target.bodySubscription = Disposable() // marks the stream as streaming before any chunk arrives
            // Subscribed from a fresh loop turn, as on an HTTP/1.1 connection: a subscription started while
            // the handler's stream is still delivering would belong to that stream's subscription.
            stream.loop.execute { [self] in watchBody(chunks, for: target) }
        }
    }

    private func watchBody(_ chunks: DataStream<[UInt8]>, for target: HTTP2Stream) {
        guard machine.isOpen(target), !target.finished else { return }
        let subscription = hop.watch(chunks) { [self] event in bodyEvent(event, for: target) }
        if target.keepBody(subscription, current: machine.isOpen(target)), machine.phase.isDraining { endStreamForShutdown(target) }
        flushOutput()
    }

    private func bodyEvent(_ event: Event<[UInt8]>, for target: HTTP2Stream) {
        guard machine.isOpen(target), !target.finished, !machine.isEnding(target) else { return }
        switch event {
        case .data(let bytes):
            guard !bytes.isEmpty else { return }
            target.bodyBytes += bytes.count
            machine.enqueue(bytes, on: target, end: false)
            // The slow-consumer policy, per stream: this stream is reset, the connection's others go on.
            if machine.isOpen(target),
               let overflow = context.configuration.limits.streamBuffer.overflow(waiting: machine.waitingBytes(of: target), unit: "bytes") {
                machine.resetStream(target.id, .cancel, reason: "slow consumer: \(overflow)")
            }
        case .end:
            machine.enqueue([], on: target, end: true)
        case .error:
            // Mid-body there is no way to report an error: the reset tells the client the body is cut short.
            machine.resetStream(target.id, .internalError, reason: "the response body failed")
        }
        flushSoon()
    }

    func endForShutdown(_ target: HTTP2Stream) { endStreamForShutdown(target) }

    /// Graceful shutdown of a streamed response: its trailer (a last SSE event), then its end.
    func endStreamForShutdown(_ target: HTTP2Stream) {
        guard !machine.isEnding(target), !target.finished else { return }
        target.bodySubscription?.dispose()
        target.bodySubscription = nil
        if let trailer = target.shutdownTrailer, !trailer.isEmpty {
            target.bodyBytes += trailer.count
            machine.enqueue(trailer, on: target, end: true)
        } else {
            machine.enqueue([], on: target, end: true)
        }
    }

    /// The state machine answered a request without its handler (408, 413, 431): the problem goes out.
    func answerWithoutHandler(_ target: HTTP2Stream, status: HTTPStatus, detail: String) {
        var problem = Response.problem(status: status, detail: detail)
        problem.headers.add(name: "Cache-Control", value: "no-store")
        let body = problem.bodyBytes ?? []
        sendHeaders(of: target, status: status, headers: problem.headers, requestID: nil, contentLength: body.count, endStream: false)
        machine.enqueue(body, on: target, end: true)
    }

    // MARK: - Frames out

    func sendHeaders(of target: HTTP2Stream, status: HTTPStatus, headers: HTTPHeaders, requestID: String?, contentLength: Int?, endStream: Bool) {
        let fields = HTTP2ResponseFields.fields(
            status: status, headers: headers, contentLength: contentLength, serverName: context.configuration.serverName,
            requestID: requestID, date: date.current)
        machine.sendHeaders(of: target, fields: fields, endStream: endStream)
    }

    /// END_STREAM went out, or the stream closed before it: the pipeline is disposed, the answer reported.
    func answerEnded(_ target: HTTP2Stream, completed: Bool) {
        target.disposeSubscriptions()
        guard let callback = context.observer.requestCompleted, let request = target.request else { return }
        callback(CompletedRequest(
            method: request.method, path: request.path, target: request.target, routePattern: request.routePattern,
            status: target.status, duration: .now - target.startedAt, bodyBytes: target.bodyBytes,
            requestID: request.id, remoteAddress: request.remoteAddress, userAgent: request.headers["user-agent"],
            completed: completed, protocolLabel: .h2
        ))
    }

    // MARK: - Shutdown

    /// The shutdown deadline, as on an HTTP/1.1 connection: a stream its handler has not answered
    /// gets a 503, a streamed response its trailer and end; then the connection closes.
    func deadlineReached() -> ShutdownDeadline.Outcome {
        var outcome = stream.bufferedByteCount > 0 || !machine.streams.isEmpty ? ShutdownDeadline.Outcome.cut : .idle
        for target in machine.streams.ordered {
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
        return outcome
    }
}
