import ConcurrencyHelpers
import Dispatch
import NetCore
import Streams

/// One client connection: parses requests, runs them through the handler one
/// at a time (pipelined requests wait their turn, so responses stay in order),
/// writes responses, and enforces timeouts and the slow-client policy.
// @unchecked: confined to its EventLoop's serial queue, which serialises every access the way a lock would.
final class HTTPConnection: @unchecked Sendable {
    private enum Pending {
        case request(Request)
        case failure(HTTPParseError)
    }

    let stream: ByteStream
    private let context: ServerContext
    private let scheduler: EventLoopScheduler
    private var parser: RequestParser
    private var pending: [Pending] = []
    private var current: Exchange?
    private var readingPaused = false
    private var continueOwed = false
    private var draining = false
    private var servedRequests = 0
    /// When the connection last had nothing to do (opened, or a response finished).
    private var idleSince: UInt64
    /// When the first byte of the request being read arrived.
    private var requestStartedAt: UInt64?
    var onClosed: (() -> Void)?

    init(stream: ByteStream, context: ServerContext, scheduler: EventLoopScheduler) {
        self.stream = stream
        self.context = context
        self.scheduler = scheduler
        parser = RequestParser(limits: context.configuration.limits)
        idleSince = DispatchTime.now().uptimeNanoseconds
    }

    func start() {
        stream.onRead = { [unowned self] bytes in received(bytes) }
        stream.onClose = { [unowned self] _ in closed() }
        stream.start()
    }

    // MARK: - Reading

    private func received(_ bytes: UnsafeRawBufferPointer) {
        let wasPartial = parser.hasPartialRequest
        parser.feed(bytes) { output in
            switch output {
            case .continueExpected:
                if current == nil && pending.isEmpty { stream.write(ResponseHeadEncoder.continueResponse) } else { continueOwed = true }
            case .request(let head, let body):
                pending.append(.request(makeRequest(head, body: body)))
            case .failure(let error):
                pending.append(.failure(error))
            }
        }
        if parser.hasPartialRequest && !wasPartial { requestStartedAt = DispatchTime.now().uptimeNanoseconds }
        if !parser.hasPartialRequest { requestStartedAt = nil }
        if parser.hasFailed || pending.count >= context.configuration.limits.maxPipelinedRequests {
            readingPaused = true
            stream.pauseReading()
        }
        startNextExchange()
    }

    private func makeRequest(_ head: RequestHead, body: [UInt8]) -> Request {
        var request = Request(
            method: head.method,
            target: head.target,
            version: head.version,
            headers: head.headers,
            body: body,
            id: RequestID.next(incoming: head.headers["X-Request-ID"]),
            remoteAddress: stream.remoteAddress
        )
        request.loopScheduler = scheduler
        return request
    }

    // MARK: - Answering

    private func startNextExchange() {
        while current == nil, !stream.isClosed, !pending.isEmpty {
            let next = pending.removeFirst()
            if readingPaused && !parser.hasFailed && pending.count < context.configuration.limits.maxPipelinedRequests {
                readingPaused = false
                stream.resumeReading()
            }
            switch next {
            case .failure(let error):
                answerParseFailure(error)
                return
            case .request(let request):
                run(request)
            }
        }
        if current == nil && pending.isEmpty && continueOwed {
            continueOwed = false
            stream.write(ResponseHeadEncoder.continueResponse)
        }
    }

    private func answerParseFailure(_ error: HTTPParseError) {
        var out: [UInt8] = []
        let problem = Response.problem(status: error.status, detail: error.description)
        let body = problem.bodyBytes ?? []
        ResponseHeadEncoder.encode(
            status: error.status, version: .http1_1, headers: problem.headers,
            framing: .contentLength(body.count), keepAlive: false,
            serverName: context.configuration.serverName, into: &out
        )
        out.append(contentsOf: body)
        stream.write(out)
        stream.closeAfterFlush()
    }

    private func run(_ request: Request) {
        var routed = request
        let responses: DataStream<Response>
        switch context.router.resolve(method: request.method, path: request.path) {
        case .matched(let handler, let pattern, let parameters):
            routed.routePattern = pattern
            routed.pathParameters = parameters
            responses = handler(routed)
        case .notFound, .methodNotAllowed:
            responses = context.router.handle(routed)
        }
        let exchange = Exchange(request: routed, startedAt: .now)
        current = exchange
        let pattern = routed.routePattern
        let hop = LoopHop(loop: stream.loop)
        let subscription = responses.watch { [self] event in
            hop.run { self.handlerEvent(event, for: exchange, pattern: pattern) }
        }
        if exchange.responded || exchange.finished || current !== exchange {
            subscription.dispose()
        } else {
            exchange.handlerSubscription = subscription
        }
    }

    private func handlerEvent(_ event: Event<Response>, for exchange: Exchange, pattern: String?) {
        guard current === exchange, !exchange.responded else { return }
        var response: Response
        switch event {
        case .data(let value):
            response = value
        case .error(let error as HTTPError):
            response = error.response(instance: exchange.request.path)
        case .error(let error):
            response = .problem(status: .internalServerError, detail: "The handler failed: \(error)", instance: exchange.request.path)
        case .end:
            response = .problem(status: .internalServerError, detail: "The handler produced no response", instance: exchange.request.path)
        }
        exchange.responded = true
        exchange.handlerSubscription?.dispose()
        exchange.handlerSubscription = nil
        respond(with: &response, to: exchange, pattern: pattern)
    }

    private func respond(with response: inout Response, to exchange: Exchange, pattern: String?) {
        let request = exchange.request
        let configuration = context.configuration
        let isHead = request.method == .head
        exchange.status = response.status.code
        exchange.keepAlive = request.wantsKeepAlive && !(draining && pending.isEmpty) && !context.isShuttingDown()
        response.headers.replaceOrAdd(name: "X-Request-ID", value: request.id)

        var out: [UInt8] = []
        switch response.body {
        case .bytes(var body):
            if response.status.allowsBody,
               body.count >= configuration.compressionMinimumBytes,
               !response.headers.contains("Content-Encoding"),
               ContentCoding.isCompressible(contentType: response.headers["Content-Type"]) {
                response.headers.add(name: "Vary", value: "Accept-Encoding")
                if ContentCoding.acceptsGzip(request.headers["Accept-Encoding"]), let compressed = try? Gzip.compress(body) {
                    body = compressed
                    response.headers.add(name: "Content-Encoding", value: "gzip")
                }
            }
            let framing: ResponseHeadEncoder.Framing = response.status.allowsBody ? .contentLength(body.count) : .none
            out.reserveCapacity(256 + body.count)
            ResponseHeadEncoder.encode(
                status: response.status, version: request.version, headers: response.headers,
                framing: framing, keepAlive: exchange.keepAlive, serverName: configuration.serverName, into: &out
            )
            if !isHead && response.status.allowsBody {
                out.append(contentsOf: body)
                exchange.bodyBytes = body.count
            }
            stream.write(out)
            finish(exchange, pattern: pattern, completed: true)

        case .stream(let chunks):
            let chunked = request.version != .http1_0
            if !chunked { exchange.keepAlive = false }
            exchange.isChunked = chunked
            exchange.shutdownTrailer = response.shutdownTrailer
            let framing: ResponseHeadEncoder.Framing = !response.status.allowsBody ? .none : (chunked ? .chunked : .untilClose)
            ResponseHeadEncoder.encode(
                status: response.status, version: request.version, headers: response.headers,
                framing: framing, keepAlive: exchange.keepAlive, serverName: configuration.serverName, into: &out
            )
            guard !isHead && response.status.allowsBody else {
                stream.write(out)
                finish(exchange, pattern: pattern, completed: true)
                return
            }
            exchange.pendingHead = out
            exchange.bodySubscription = Disposable() // marks the exchange as streaming before any chunk arrives
            // Subscribed from a fresh loop turn: a subscription started while the handler's stream is
            // still delivering would belong to that stream's subscription and end with it.
            stream.loop.execute { [self] in watchBody(chunks, for: exchange, pattern: pattern) }
        }
    }

    private func watchBody(_ chunks: DataStream<[UInt8]>, for exchange: Exchange, pattern: String?) {
        guard current === exchange, !exchange.finished else { return }
        // The head and what the body emits at once (an SSE prelude) leave in one segment.
        stream.loop.batchingWrites {
            writePendingHead(of: exchange)
            let hop = LoopHop(loop: stream.loop)
            let subscription = chunks.watch { [self] event in
                hop.run { self.bodyEvent(event, for: exchange, pattern: pattern) }
            }
            if exchange.finished || current !== exchange {
                subscription.dispose()
            } else {
                exchange.bodySubscription = subscription
                if draining { endStreamForShutdown(exchange, pattern: pattern) }
            }
        }
    }

    private func writePendingHead(of exchange: Exchange) {
        guard let head = exchange.pendingHead else { return }
        exchange.pendingHead = nil
        stream.write(head)
    }

    private func bodyEvent(_ event: Event<[UInt8]>, for exchange: Exchange, pattern: String?) {
        guard current === exchange, !exchange.finished else { return }
        switch event {
        case .data(let bytes):
            guard !bytes.isEmpty else { return }
            exchange.bodyBytes += bytes.count
            if exchange.isChunked { stream.write(ResponseHeadEncoder.chunk(bytes)) } else { stream.write(bytes) }
            if stream.bufferedByteCount > context.configuration.limits.maxStreamBufferBytes {
                // Slow-client policy: a reader this far behind is dropped instead of buffered forever.
                stream.close(.failed("slow client: output buffer over \(context.configuration.limits.maxStreamBufferBytes) bytes"))
            }
        case .end:
            if exchange.isChunked { stream.write(ResponseHeadEncoder.lastChunk) }
            finish(exchange, pattern: pattern, completed: true)
        case .error:
            // Mid-body there is no way to report an error: close without the last chunk so the client sees truncation.
            finish(exchange, pattern: pattern, completed: false)
            stream.close(.local)
        }
    }

    private func finish(_ exchange: Exchange, pattern: String?, completed: Bool) {
        guard !exchange.finished else { return }
        exchange.finished = true
        exchange.disposeSubscriptions()
        report(exchange, pattern: pattern, completed: completed)
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

    private func report(_ exchange: Exchange, pattern: String?, completed: Bool) {
        guard let callback = context.observer.requestCompleted else { return }
        let request = exchange.request
        callback(CompletedRequest(
            method: request.method, path: request.path, target: request.target, routePattern: pattern,
            status: exchange.status, duration: .now - exchange.startedAt, bodyBytes: exchange.bodyBytes,
            requestID: request.id, remoteAddress: request.remoteAddress, userAgent: request.headers["User-Agent"],
            completed: completed
        ))
    }

    // MARK: - Timeouts, shutdown, close

    /// Called periodically by the loop's sweep.
    func checkTimeouts(now: UInt64) {
        guard !stream.isClosed else { return }
        let timeouts = context.configuration.timeouts
        if stream.bufferedByteCount > 0 && now &- stream.lastWriteProgress > timeouts.write.nanoseconds {
            stream.close(.failed("write timeout"))
            return
        }
        guard current == nil && pending.isEmpty else { return }
        if let started = requestStartedAt, parser.hasPartialRequest {
            let limit = parser.isReadingHead ? timeouts.header : timeouts.header + timeouts.body
            if now &- started > limit.nanoseconds {
                timeOutRequest()
            }
            return
        }
        let limit = servedRequests == 0 ? timeouts.header : timeouts.idle
        if stream.bufferedByteCount == 0 && now &- idleSince > limit.nanoseconds {
            stream.close(.local)
        }
    }

    private func timeOutRequest() {
        readingPaused = true
        stream.pauseReading()
        let problem = Response.problem(status: .requestTimeout, detail: "The request was not received in time")
        let body = problem.bodyBytes ?? []
        var out: [UInt8] = []
        ResponseHeadEncoder.encode(
            status: .requestTimeout, version: .http1_1, headers: problem.headers,
            framing: .contentLength(body.count), keepAlive: false,
            serverName: context.configuration.serverName, into: &out
        )
        out.append(contentsOf: body)
        stream.write(out)
        stream.closeAfterFlush()
    }

    /// Graceful shutdown: finish what is in flight, end streams, close when idle.
    func beginShutdown() {
        guard !draining, !stream.isClosed else { return }
        draining = true
        if let current {
            if current.isStreaming { endStreamForShutdown(current, pattern: current.request.routePattern) }
            return
        }
        if pending.isEmpty && !parser.hasPartialRequest {
            stream.closeAfterFlush()
        }
    }

    private func endStreamForShutdown(_ exchange: Exchange, pattern: String?) {
        writePendingHead(of: exchange)
        exchange.bodySubscription?.dispose()
        exchange.bodySubscription = nil
        exchange.keepAlive = false
        if let trailer = exchange.shutdownTrailer, !trailer.isEmpty {
            exchange.bodyBytes += trailer.count
            stream.write(exchange.isChunked ? ResponseHeadEncoder.chunk(trailer) : trailer)
        }
        if exchange.isChunked { stream.write(ResponseHeadEncoder.lastChunk) }
        finish(exchange, pattern: pattern, completed: true)
    }

    func forceClose() {
        stream.close(.local)
    }

    private func closed() {
        if let current {
            self.current = nil
            current.disposeSubscriptions()
            if !current.finished {
                current.finished = true
                report(current, pattern: current.request.routePattern, completed: false)
            }
        }
        pending.removeAll()
        let onClosed = self.onClosed
        self.onClosed = nil
        onClosed?()
    }
}
