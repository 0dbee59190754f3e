// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Dispatch
import NetCore
import Streams

/// The HTTP/1.1 side of a `ServerConnection`: parses requests, runs them through the handler one
/// at a time (pipelined requests wait their turn, so responses stay in order), writes responses,
/// and enforces the header, body and idle timeouts and the slow-client policy.
// @unchecked: confined to its EventLoop's serial queue, which serialises every access the way a lock would.
// `@exclusivity(unchecked)` on its state for the same reason: no two accesses can overlap in time, and the
// run-time checks would guard nothing at a cost on every access (figures: the HTTP ledger, Benchmarks/README.md).
final class HTTP1Connection: ServerProtocolHandler, @unchecked Sendable {
    private enum Pending {
        case request(RequestHead, notes: HeadNotes, body: [UInt8])
        case failure(HTTPParseError)
    }

    /// The connection this protocol answers on: its socket, lingering close and write timeout.
    private unowned let connection: ServerConnection
    private let stream: ByteStream
    let context: ServerContext
    private let scheduler: EventLoopScheduler
    private let date: HTTPDate.LoopCache
    private let writer: ResponseWriter
    /// Brings the events of this connection's handler and body streams onto its loop, in order;
    /// one per connection rather than one per stream (an allocation per request saved).
    let loopDelivery: OrderedLoopDelivery
    /// Every request's scheme on this connection: `https` over TLS, else `http`.
    private let scheme: String
    /// Where a fixed response is encoded before it is written; kept between responses.
    @exclusivity(unchecked) private var output: [UInt8] = []
    @exclusivity(unchecked) private var parser: RequestParser
    @exclusivity(unchecked) private var pending: [Pending] = []
    @exclusivity(unchecked) private var current: Exchange?
    @exclusivity(unchecked) private var readingPaused = false
    @exclusivity(unchecked) private var continueOwed = false
    @exclusivity(unchecked) private var draining = false
    @exclusivity(unchecked) private var servedRequests = 0
    /// When the connection last had nothing to do (opened, or a response finished).
    @exclusivity(unchecked) private var idleSince: UInt64
    /// When the first byte of the request being read arrived.
    @exclusivity(unchecked) private var requestStartedAt: UInt64?
    /// When the body of the request being read began (its head complete).
    @exclusivity(unchecked) private var bodyStartedAt: UInt64?

    init(connection: ServerConnection) {
        self.connection = connection
        stream = connection.stream
        context = connection.context
        scheduler = connection.scheduler
        date = connection.date
        loopDelivery = OrderedLoopDelivery(loop: stream.loop)
        scheme = stream.isTLS ? "https" : "http"
        writer = context.writer
        parser = RequestParser(limits: context.configuration.limits)
        // The connection has been idle since it opened, whenever its first bytes chose HTTP/1.1.
        idleSince = connection.openedAt
    }

    func start(with bytes: UnsafeRawBufferPointer) {
        if !bytes.isEmpty { received(bytes) }
    }

    // MARK: - Reading

    func received(_ bytes: UnsafeRawBufferPointer) {
        let wasPartial = parser.hasPartialRequest
        // The parser hands each output over (`consuming`), and it moves on into `pending` and then
        // `run`: a request head borrowed and copied at each step costs retains, releases and
        // outlined copies per exchange.
        // `unowned(unsafe)`: the closure does not outlive this call, which `self` outlives; captured
        // strongly, the connection was retained and released around every line the parser handled.
        parser.feed(bytes) { [unowned(unsafe) self] output in
            switch consume output {
            case .continueExpected(let head):
                // A request the router will refuse gets no invitation to send its body.
                guard context.router.accepts(method: head.method, path: head.target.path) else { break }
                if current == nil && pending.isEmpty { stream.write(ResponseHeadEncoder.continueResponse) } else { continueOwed = true }
            case .request(let head, let notes, let body):
                pending.append(.request(head, notes: notes, body: body))
            case .failure(let error):
                pending.append(.failure(error))
            }
        }
        if parser.hasPartialRequest && !wasPartial { requestStartedAt = DispatchTime.now().uptimeNanoseconds }
        if !parser.hasPartialRequest {
            requestStartedAt = nil
            bodyStartedAt = nil
        } else if parser.isReadingHead {
            bodyStartedAt = nil // a pipelined request's head after a body read in the same turn
        } else if bodyStartedAt == nil {
            bodyStartedAt = DispatchTime.now().uptimeNanoseconds
        }
        if parser.hasFailed || pending.count >= context.configuration.limits.maxPipelinedRequests {
            readingPaused = true
            stream.pauseReading()
        }
        startNextExchange()
    }


    // MARK: - Answering

    private func startNextExchange() {
        while current == nil, !stream.isClosed, !pending.isEmpty {
            // One request waiting is the common case: taken from the end, it moves out without shifting.
            let next = pending.count == 1 ? pending.removeLast() : pending.removeFirst()
            if readingPaused && !parser.hasFailed && pending.count < context.configuration.limits.maxPipelinedRequests {
                readingPaused = false
                stream.resumeReading()
            }
            switch consume next {
            case .failure(let error):
                answerAndClose(error.status, reason: error.rejectionReason, detail: error.description)
                return
            case .request(let head, let notes, let body):
                run(head, notes: notes, body: body)
            }
        }
        if current == nil && pending.isEmpty && continueOwed {
            continueOwed = false
            stream.write(ResponseHeadEncoder.continueResponse)
        }
    }

    /// A request that never reaches a handler (unparseable, or too slow to arrive) gets a problem, then the close.
    private func answerAndClose(_ status: HTTPStatus, reason: Rejection.Reason, detail: String) {
        context.observer.requestRejected?(Rejection(status: status.code, reason: reason, detail: detail, remoteAddress: stream.remoteAddress))
        stream.write(writer.closingProblem(status, detail: detail))
        lingerThenClose()
    }

    /// After an error answer the rest of the input is read and dropped (`ServerConnection.lingerThenClose`).
    private func lingerThenClose() {
        readingPaused = false
        connection.lingerThenClose()
    }

    /// The head's notes answer what the server asks of every request (its id, whether the
    /// connection persists, the client for the log) without searching the header list.
    private func run(_ head: consuming RequestHead, notes: HeadNotes, body: consuming [UInt8]) {
        let wantsKeepAlive = notes.persists(in: head.version)
        let id = RequestID.next(incoming: notes.requestID, prefix: context.configuration.requestIDPrefix)
        var request = Request(
            head: head, scheme: scheme, body: body, id: id, remoteAddress: stream.remoteAddress, peerAddress: stream.peerAddress,
            loopScheduler: scheduler)
        if context.traces, let tracer = context.tracer {
            // The one note the closure reads, not the notes: captured whole, they were copied
            // and destroyed through their value witness three times (about 500 instructions).
            let userAgent = notes.userAgent
            routeTraced(&request, tracer: tracer, mayCarryTraceparent: notes.hasTraceparent) { request in
                let exchange = Exchange(request: request, startedAt: .now, wantsKeepAlive: wantsKeepAlive, userAgent: userAgent)
                current = exchange
                return exchange
            }
            return
        }
        let responses = context.router.route(&request)
        let exchange = Exchange(request: consume request, startedAt: .now, wantsKeepAlive: wantsKeepAlive, userAgent: notes.userAgent)
        current = exchange
        follow(responses, for: exchange)
    }

    private func writePendingHead(of exchange: Exchange) {
        guard let head = exchange.pendingHead else { return }
        exchange.pendingHead = nil
        stream.write(head)
    }

    private func finish(_ exchange: Exchange, completed: Bool) {
        guard !exchange.finished else { return }
        exchange.finished = true
        exchange.disposeSubscriptions()
        report(exchange, completed: completed)
        guard current === exchange else { return }
        current = nil
        servedRequests += 1
        idleSince = DispatchTime.now().uptimeNanoseconds
        if !exchange.keepAlive {
            stream.closeAfterFlush()
            return
        }
        if draining && pending.isEmpty && !parser.hasPartialRequest {
            stream.closeAfterFlush()
            return
        }
        if pending.isEmpty {
            startNextExchange() // only settles an owed 100 Continue
        } else {
            // A fresh loop turn, so the next handler is not subscribed from inside this one's delivery.
            stream.loop.execute { [self] in startNextExchange() }
        }
    }

    private func report(_ exchange: Exchange, completed: Bool) {
        report(exchange, request: exchange.request, userAgent: exchange.userAgent, completed: completed, protocolLabel: .h1)
    }

    // MARK: - Timeouts, shutdown, close

    /// The header, body and idle timeouts (the connection keeps the write timeout and the lingering close's).
    func checkTimeouts(now: UInt64) {
        let timeouts = context.configuration.timeouts
        guard current == nil && pending.isEmpty else { return }
        if let started = requestStartedAt, parser.hasPartialRequest {
            if let bodyStarted = bodyStartedAt {
                if now &- bodyStarted > timeouts.body.nanoseconds { timeOutRequest(readingHead: false) }
            } else if now &- started > timeouts.header.nanoseconds {
                timeOutRequest(readingHead: true)
            }
            return
        }
        let limit = servedRequests == 0 ? timeouts.header : timeouts.idle
        if stream.bufferedByteCount == 0 && now &- idleSince > limit.nanoseconds {
            stream.close(.local)
        }
    }

    private func timeOutRequest(readingHead: Bool) {
        readingPaused = true
        stream.pauseReading()
        let timeouts = context.configuration.timeouts
        if readingHead {
            answerAndClose(.requestTimeout, reason: .headerTimeout,
                           detail: "The request's headers were not received within \(timeouts.header.text)")
        } else {
            answerAndClose(.requestTimeout, reason: .bodyTimeout,
                           detail: "The request's body was not received within \(timeouts.body.text) of its headers")
        }
    }

    /// Graceful shutdown: finish what is in flight, end streams, close when idle.
    func beginShutdown() {
        guard !draining else { return }
        draining = true
        if let current {
            if current.isStreaming { endForShutdown(current) }
            return
        }
        if pending.isEmpty && !parser.hasPartialRequest {
            stream.closeAfterFlush()
        }
    }

    /// The shutdown deadline: a request its handler has not answered gets a 503 with
    /// `Connection: close` (nothing of its response was sent yet), a streamed response its last
    /// chunk; then the connection closes (`ServerConnection.deadlineReached`), whatever it was still sending.
    func deadlineReached() -> ShutdownDeadline.Outcome {
        // A finished exchange may still have its last bytes queued for a slow reader.
        guard let current else { return stream.bufferedByteCount > 0 ? .cut : .idle }
        if !current.responded {
            current.responded = true
            current.keepAlive = false
            current.status = HTTPStatus.serviceUnavailable.code
            let answer = writer.closingProblem(.serviceUnavailable, detail: "The server is shutting down and this request did not finish in time")
            current.bodyBytes = answer.count
            stream.write(answer)
            finish(current, completed: true)
            return .answered
        }
        if current.isStreaming || current.pendingHead != nil {
            endForShutdown(current)
            return .ended
        }
        return .cut
    }

    func closed() {
        if let current {
            self.current = nil
            current.disposeSubscriptions()
            if !current.finished {
                current.finished = true
                report(current, completed: false)
            }
        }
        pending.removeAll()
    }
}

/// How an answer goes on an HTTP/1.1 wire: a head with its framing, framed pieces, the framing's
/// end; a body cut short closes the connection (the client sees the truncation).
extension HTTP1Connection: AnswerDriver {
    var loop: EventLoop { stream.loop }
    var isDraining: Bool { draining }

    func owns(_ exchange: Exchange) -> Bool { current === exchange }
    func isEnding(_ exchange: Exchange) -> Bool { false }
    func request(of exchange: Exchange) -> Request? { exchange.request }

    func writeHead(_ response: Response, of exchange: Exchange) -> DataStream<[UInt8]>? {
        let request = exchange.request
        exchange.keepAlive = exchange.wantsKeepAlive && !(draining && pending.isEmpty) && !context.isShuttingDown()
        switch response.body {
        case .bytes(let body):
            output.removeAll(keepingCapacity: true)
            exchange.bodyBytes = writer.fixed(response, body: body, for: request, keepAlive: exchange.keepAlive, date: date.current, into: &output)
            stream.write(output)
            // A large answer's buffer is not kept for the next one (10,000 idle connections × capacity adds up).
            if output.capacity > 4096 { output = [] }
            finish(exchange, completed: true)
            return nil
        case .stream(let chunks):
            let (head, framing) = writer.streamHead(response, for: request, keepAlive: &exchange.keepAlive, date: date.current)
            guard framing != .none else {
                stream.write(head)
                finish(exchange, completed: true)
                return nil
            }
            exchange.framing = framing
            exchange.pendingHead = head
            return chunks
        }
    }

    /// The head and what the body emits at once (an SSE prelude) leave in one segment.
    func beginBody(of exchange: Exchange, _ watch: () -> Void) {
        stream.loop.batchingWrites {
            writePendingHead(of: exchange)
            watch()
        }
    }

    func writeBodyPiece(_ bytes: [UInt8], of exchange: Exchange) {
        stream.write(ResponseWriter.piece(bytes, framing: exchange.framing))
    }

    func end(_ exchange: Exchange, trailer: [UInt8]?, forShutdown: Bool) {
        if forShutdown {
            writePendingHead(of: exchange)
            exchange.keepAlive = false
        }
        if let trailer { stream.write(ResponseWriter.piece(trailer, framing: exchange.framing)) }
        if let end = ResponseWriter.end(framing: exchange.framing) { stream.write(end) }
        finish(exchange, completed: true)
    }

    func reset(_ exchange: Exchange, _ reason: AnswerReset) {
        switch reason {
        case .bodyFailed:
            // Closed without the last chunk, so the client sees the truncation.
            finish(exchange, completed: false)
            stream.close(.local)
        case .slowReader(let overflow):
            stream.close(.failed("slow client: \(overflow)"))
        }
    }

    func backlog(of exchange: Exchange) -> Int { stream.bufferedByteCount }
    func flush(soon: Bool) {}
}
