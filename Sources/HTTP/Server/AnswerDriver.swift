// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore
import Streams
import Tracing

/// Driving a handler's `DataStream<Response>` onto a wire, written once for both protocols: follow
/// the handler's events (its answer, its failure, or its silence), start a streamed body from a
/// fresh loop turn, apply the slow-consumer policy, end a streamed body at a graceful shutdown
/// with its trailer, and report the answer to the access log and metrics. Each protocol implements
/// the requirements, the little that differs: whether an answer is still its to write, and how a
/// head, a body piece, an end and a reset go on its wire.
protocol AnswerDriver: AnyObject, Sendable {
    /// One answer's progress on this protocol: `Exchange` (HTTP/1.1) or `HTTP2Stream`.
    associatedtype Answer: AnswerLife
    var context: ServerContext { get }
    /// Brings the handler's and the body's events onto the connection's loop, in order.
    var loopDelivery: OrderedLoopDelivery { get }
    var loop: EventLoop { get }
    /// A graceful shutdown began: a streamed body that starts now ends at once, with its trailer.
    var isDraining: Bool { get }

    /// The answer is still this connection's to write (HTTP/1.1: the current exchange; HTTP/2: its
    /// stream is open).
    func owns(_ answer: Answer) -> Bool
    /// The answer's end is on its way (HTTP/2: END_STREAM queued): nothing more is written for it.
    func isEnding(_ answer: Answer) -> Bool
    /// The request the answer is for (the `instance` and request id of a problem the driver answers
    /// with); nil when the answer has no request (HTTP/2's answers without a handler).
    func request(of answer: Answer) -> Request?
    /// Writes the response's head, and a fixed body whole; returns the streamed body that follows,
    /// or nil when the answer is complete (or has no body: HEAD, 204, 304).
    func writeHead(_ response: Response, of answer: Answer) -> DataStream<[UInt8]>?
    /// Starts the streamed body: `watch` subscribes to it (HTTP/1.1 sends the held head with what
    /// the body emits at once).
    func beginBody(of answer: Answer, _ watch: () -> Void)
    func writeBodyPiece(_ bytes: [UInt8], of answer: Answer)
    /// Ends the streamed body, `trailer` its last piece (a graceful shutdown's, so `forShutdown`).
    func end(_ answer: Answer, trailer: [UInt8]?, forShutdown: Bool)
    /// The body cannot go on (`reason`): the client must see it cut short.
    func reset(_ answer: Answer, _ reason: AnswerReset)
    /// The answer's bytes written and not yet taken by its reader.
    func backlog(of answer: Answer) -> Int
    /// Writes what the protocol collected (HTTP/2's frames); `soon`: at the end of the loop's write batch.
    func flush(soon: Bool)
}

/// Why a streamed body is cut short.
enum AnswerReset {
    /// Its stream failed mid-body: there is no way to report an error but the cut.
    case bodyFailed
    /// Its reader fell this far behind (the slow-consumer policy): dropped, not buffered for ever.
    case slowReader(BufferOverflowError)
}

extension AnswerDriver {
    /// Follows the handler's answer. A synchronous pipeline (a fixed answer, whatever middlewares
    /// map it) runs here and now, without the watcher and subscription a `watch` builds and tears
    /// down per request.
    @inline(__always)
    func follow(_ responses: DataStream<Response>, for answer: Answer) {
        if responses.runSynchronously({ event in
            handlerEvent(event, for: answer)
            return false
        }) {
            return
        }
        let subscription = loopDelivery.watch(responses) { [self] event in handlerEvent(event, for: answer) }
        answer.keepHandler(subscription, wanted: !answer.responded && !answer.finished && owns(answer))
    }

    private func handlerEvent(_ event: Event<Response>, for answer: Answer) {
        guard owns(answer), !answer.responded else { return }
        let response: Response
        if case .data(let value) = event {
            response = value
        } else {
            // Only a failure needs the request and the observer: copying them (a dozen references)
            // for every answer showed in `/health`'s count (the ledger, Benchmarks/README.md).
            guard let request = request(of: answer) else { return }
            response = request.answer(to: event, observer: context.observer)
        }
        answer.markResponded()
        answer.handlerSubscription?.dispose()
        answer.handlerSubscription = nil
        respond(with: response, to: answer)
        flush(soon: false)
    }

    /// Writes `response`; a streamed body is watched from a fresh loop turn.
    @inline(__always)
    func respond(with response: Response, to answer: Answer) {
        answer.status = response.status.code
        guard let chunks = writeHead(response, of: answer) else { return }
        answer.shutdownTrailer = response.shutdownTrailer
        answer.bodySubscription = Disposable() // marks the answer as streaming before any chunk arrives
        // A subscription started while the handler's stream is still delivering would belong to
        // that stream's subscription and end with it.
        loop.execute { [self] in watchBody(chunks, for: answer) }
    }

    private func watchBody(_ chunks: DataStream<[UInt8]>, for answer: Answer) {
        guard owns(answer), !answer.finished else { return }
        beginBody(of: answer) {
            let subscription = loopDelivery.watch(chunks) { [self] event in bodyEvent(event, for: answer) }
            if answer.keepBody(subscription, wanted: !answer.finished && owns(answer)), isDraining { endForShutdown(answer) }
        }
    }

    private func bodyEvent(_ event: Event<[UInt8]>, for answer: Answer) {
        guard owns(answer), !answer.finished, !isEnding(answer) else { return }
        switch event {
        case .data(let bytes):
            guard !bytes.isEmpty else { return }
            answer.bodyBytes += bytes.count
            writeBodyPiece(bytes, of: answer)
            if owns(answer), let overflow = context.configuration.limits.streamBuffer.overflow(waiting: backlog(of: answer), unit: "bytes") {
                reset(answer, .slowReader(overflow))
            }
        case .end:
            end(answer, trailer: nil, forShutdown: false)
        case .error:
            reset(answer, .bodyFailed)
        }
        flush(soon: true)
    }

    /// Graceful shutdown of a streamed response: its trailer (a last SSE event), then its end.
    func endForShutdown(_ answer: Answer) {
        guard !isEnding(answer), !answer.finished else { return }
        answer.bodySubscription?.dispose()
        answer.bodySubscription = nil
        var trailer = answer.shutdownTrailer
        if trailer?.isEmpty == true { trailer = nil }
        answer.bodyBytes += trailer?.count ?? 0
        end(answer, trailer: trailer, forShutdown: true)
    }

    /// Routes `request` inside its SERVER span and follows the answer `answer` makes for it,
    /// with the span's context bound: the handler's pipeline is built and subscribed in it, and
    /// its subscriptions carry it on (`ContextPropagation`). `answer` keeps the span, ended in `report`.
    /// An unsampled request under a tracer that keeps its context for every span below
    /// (`UnrecordedContextKeeping`) carries the context (`Request.unrecordedTrace`), which its
    /// pipeline's own spans and upstream fields take. It is bound too, but not carried
    /// (`ContextPropagation.withoutCarrying`): the handler's synchronous code (routing, building
    /// and subscribing the pipeline, a library's `withSpan` there) sees it as a sampled request's
    /// does, and joins its trace; the subscriptions' later hops neither keep nor bind it, so they
    /// run with no context (code there that reads `ServiceContext.current` finds none).
    /// An unrecorded span under such a tracer ends as it began (nothing recorded, nothing to
    /// export): no `ServerSpan` is kept to name and end it (its allocation, its existentials
    /// copied in and its deinit: about 500 instructions a request at any sampling ratio below 1).
    /// `mayCarryTraceparent` false: the parser saw no `traceparent` field (HTTP/1.1's
    /// `HeadNotes.hasTraceparent`), so a `TraceparentExtracting` tracer is not asked to extract.
    func routeTraced(_ request: inout Request, tracer: any Tracer, mayCarryTraceparent: Bool = true, answer: (inout Request) -> Answer) {
        let lists = context.attributeLists
        let extracting = mayCarryTraceparent || !context.extractsTraceparentAlone
        let start = ServerSpan.start(for: request, tracer: tracer, lists: lists, extracting: extracting)
        // The ids as the tracer named them beginning the span, or a recorded span's from its
        // recording: its context is made only to be bound below (`OTelSpan.context`), not once
        // more for them.
        if let identity = start.identity ?? start.recorded?.traceIdentity {
            request.trace = identity
        } else if let reader = context.identityReader {
            request.trace = reader.traceIdentity(of: start.span.context)
        } else {
            request.trace = TraceIdentity(of: start.span.context, tracer: tracer)
        }
        if context.carriesUnrecordedTraces, !ServerSpan.isRecording(start, lists: lists) {
            let spanContext = start.span.context
            request.unrecordedTrace = UnrecordedTrace(context: spanContext, tracer: tracer)
            return ServiceContext.withValue(spanContext) {
                ContextPropagation.withoutCarrying { route(&request, in: nil, answer: answer) }
            }
        }
        let span = ServerSpan(consume start, for: request, lists: lists)
        ServiceContext.withValue(span.context) { route(&request, in: span, answer: answer) }
    }

    private func route(_ request: inout Request, in span: ServerSpan?, answer: (inout Request) -> Answer) {
        let responses = context.router.route(&request)
        span?.routed(request.routePattern)
        let made = answer(&request)
        made.serverSpan = span
        follow(responses, for: made)
    }

    /// The access log's and the metrics' record of an answer that ended, and its span's end.
    func report(_ answer: Answer, request: Request, userAgent: String?, completed: Bool, protocolLabel: HTTPProtocolLabel) {
        if let span = answer.serverSpan {
            answer.serverSpan = nil
            span.end(status: answer.status, completed: completed)
        }
        guard let callback = context.observer.requestCompleted else { return }
        callback(CompletedRequest(
            method: request.method, path: request.path, target: request.target, routePattern: request.routePattern,
            status: answer.status, duration: .now - answer.startedAt, bodyBytes: answer.bodyBytes,
            requestID: request.id, remoteAddress: request.remoteAddress, userAgent: userAgent,
            completed: completed, protocolLabel: protocolLabel, trace: request.trace
        ))
    }
}
