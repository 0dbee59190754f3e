// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Dispatch
import NetCore
import Streams

/// Running a request stream through the router (`AnswerDriver`) and writing its response as frames.
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
        if context.traces, let tracer = context.tracer {
            routeTraced(&request, tracer: tracer) { request in
                target.request = request
                target.startedAt = .now
                return target
            }
            return
        }
        let responses = context.router.route(&request)
        target.request = request
        target.startedAt = .now
        follow(responses, for: target)
    }

    /// The state machine answered a request without its handler (408, 413, 431): the problem goes out.
    func answerWithoutHandler(_ target: HTTP2Stream, status: HTTPStatus, detail: String) {
        var problem = Response.problem(status: status, detail: detail)
        problem.headers.add(name: "Cache-Control", value: "no-store")
        let body = problem.bodyBytes ?? []
        sendHeaders(of: target, status: status, headers: problem.headers, requestID: nil, contentLength: body.count, endStream: false)
        machine.enqueue(body, on: target, end: true)
    }

    func sendHeaders(of target: HTTP2Stream, status: HTTPStatus, headers: HTTPHeaders, requestID: String?, contentLength: Int?, endStream: Bool) {
        let fields = HTTP2ResponseFields.fields(
            status: status, headers: headers, contentLength: contentLength, serverName: context.configuration.serverName,
            requestID: requestID, date: date.current)
        machine.sendHeaders(of: target, fields: fields, endStream: endStream)
    }

    /// END_STREAM went out, or the stream closed before it: the pipeline is disposed, the answer reported.
    func answerEnded(_ target: HTTP2Stream, completed: Bool) {
        target.disposeSubscriptions()
        guard let request = target.request else { return }
        report(target, request: request, userAgent: request.headers["user-agent"], completed: completed, protocolLabel: .h2)
    }

    // MARK: - Shutdown

    /// The shutdown deadline, as on an HTTP/1.1 connection: a stream its handler has not answered
    /// gets a 503, a streamed response its trailer and end; then the connection closes.
    func deadlineReached() -> ShutdownDeadline.Outcome {
        var outcome = stream.bufferedByteCount > 0 || !machine.streams.isEmpty ? ShutdownDeadline.Outcome.cut : .idle
        for target in machine.streams.ordered {
            guard target.request != nil else { continue }
            if !target.responded {
                target.markResponded()
                target.disposeSubscriptions()
                respond(
                    with: .problem(status: .serviceUnavailable, detail: "The server is shutting down and this request did not finish in time"),
                    to: target)
                outcome = .answered
            } else if target.isStreaming {
                endForShutdown(target)
                if outcome != .answered { outcome = .ended }
            }
        }
        flushOutput()
        return outcome
    }
}

/// How an answer goes on an HTTP/2 wire: HEADERS, DATA under the stream's window, END_STREAM; a body
/// cut short resets its stream, and the connection's other streams go on.
extension HTTP2Connection: AnswerDriver {
    var loop: EventLoop { stream.loop }
    var isDraining: Bool { machine.phase.isDraining }

    func owns(_ target: HTTP2Stream) -> Bool { machine.isOpen(target) }
    func isEnding(_ target: HTTP2Stream) -> Bool { machine.isEnding(target) }
    func request(of target: HTTP2Stream) -> Request? { target.request }

    func writeHead(_ response: Response, of target: HTTP2Stream) -> DataStream<[UInt8]>? {
        guard let request = target.request else { return nil }
        let sendsBody = response.status.allowsBody && request.method != .head
        switch response.body {
        case .bytes(var body):
            var headers = response.headers
            context.writer.compress(&body, headers: &headers, of: response, for: request)
            let bodyFollows = sendsBody && !body.isEmpty
            sendHeaders(of: target, status: response.status, headers: headers, requestID: request.id,
                        contentLength: response.status.allowsBody ? body.count : nil, endStream: !bodyFollows)
            if bodyFollows {
                target.bodyBytes = body.count
                machine.enqueue(body, on: target, end: true)
            }
            return nil
        case .stream(let chunks):
            sendHeaders(of: target, status: response.status, headers: response.headers, requestID: request.id, contentLength: nil, endStream: !sendsBody)
            return sendsBody ? chunks : nil
        }
    }

    func beginBody(of target: HTTP2Stream, _ watch: () -> Void) {
        watch()
        flushOutput()
    }

    func writeBodyPiece(_ bytes: [UInt8], of target: HTTP2Stream) {
        machine.enqueue(bytes, on: target, end: false)
    }

    func end(_ target: HTTP2Stream, trailer: [UInt8]?, forShutdown: Bool) {
        machine.enqueue(trailer ?? [], on: target, end: true)
    }

    func reset(_ target: HTTP2Stream, _ reason: AnswerReset) {
        switch reason {
        case .bodyFailed:
            machine.resetStream(target.id, .internalError, reason: "the response body failed")
        case .slowReader(let overflow):
            // Per stream: this stream is reset, the connection's others go on.
            machine.resetStream(target.id, .cancel, reason: "slow consumer: \(overflow)")
        }
    }

    func backlog(of target: HTTP2Stream) -> Int { machine.waitingBytes(of: target) }

    func flush(soon: Bool) {
        if soon { flushSoon() } else { flushOutput() }
    }
}
