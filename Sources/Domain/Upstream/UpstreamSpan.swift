// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTP
import Streams
import Synchronization
import Tracing

/// The CLIENT span of one upstream exchange (`UpstreamCall`: its attempts, retries and
/// back-off; a redirect's hop is an exchange of its own), with OpenTelemetry's stable HTTP
/// client names. Every attempt sends `traceparent` with this span's id (`inject(into:)`); the
/// retries are events on it (`retry`, with the wait and the failure), their count
/// `http.request.resend_count`; the transports below note what answered
/// (`streamservice.upstream.cache`, `streamservice.upstream.single_flight`).
/// It rides in the `UpstreamRequest` of each attempt, so the stages below reach it without a
/// task-local lookup.
public final class UpstreamSpan: Sendable, Equatable {
    /// The span's recording, when the client's list taker began it and it records
    /// (`SpanAttributeListTaking.startSpanOrRecording`): reached directly, with no existential
    /// span beside it (which held the recording and the parent's context again, and made the
    /// object 121 bytes); nil otherwise: then `unrecorded`'s span and the tracer do it all (the
    /// slow twin).
    /// Two optionals, not one enum of the two: an enum holding `any Span` is address-only, and
    /// each `switch` on it copied it whole and destroyed the copy (about 90 + 75 instructions a
    /// read, four reads a span: `/users` at 100 %, `UpstreamSpan.end(status:)` 63.2 k -> 72.0 k).
    private let recorded: (any RecordedSpan)?
    /// The context the recording began in, its span's made of it when read (`RecordedSpan.context(in:)`).
    private let parent: ServiceContext
    /// The span, when there is no recording.
    private let unrecorded: UnrecordedSpan?
    /// The client whose exchange this is: its tracer, its tracer's list taking and its memo of
    /// `server.address` and `server.port` per origin, reached through it rather than copied into
    /// each span (two existentials copied in and destroyed again, ≈ 470 instructions a span).
    private let client: GitHubClient
    private let url: URL
    private let stage: UpstreamStage
    private let ended = Atomic<Bool>(false)

    /// A span of `tracer` (the client's) begun now, child of the context current now (the
    /// subscription's), read through `subscription` when it is the one being set up here
    /// (`ContextPropagation.current(settingUp:)`).
    init(client: GitHubClient, tracer: any Tracer, url: URL, stage: UpstreamStage, settingUp subscription: Disposable? = nil) {
        self.client = client
        self.url = url
        self.stage = stage
        let parent = subscription.map(ContextPropagation.current(settingUp:)) ?? ServiceContext.current
        let parentContext = parent ?? .topLevel
        self.parent = parentContext
        switch tracer.startSpanOrRecording("GET", context: parentContext, ofKind: .client, lists: client.attributeLists) {
        case .recorded(let recorded):
            self.recorded = recorded
            unrecorded = nil
        case .span(let span):
            recorded = nil
            unrecorded = UnrecordedSpan(span: span)
        }
    }

    /// A span reached through the span API (the slow twin), boxed: held inline, its existential
    /// made the object larger for every span.
    private final class UnrecordedSpan: Sendable {
        let span: any Span

        init(span: any Span) {
            self.span = span
        }
    }

    /// The span through the span API: there is one whenever there is no recording.
    private var span: any Span {
        guard let unrecorded else { preconditionFailure("a span with a recording is reached through it") }
        return unrecorded.span
    }

    private var addresses: ServerAddress.Memo { client.serverAddresses }
    private var lists: (any SpanAttributeListTaking)? { client.attributeLists }

    var context: ServiceContext {
        if let recorded { return recorded.context(in: parent) }
        return span.context
    }

    /// Whether the span records (its trace is sampled).
    var isRecording: Bool { recorded != nil || span.isRecording }

    /// `Span.setStatus`, through the recording when there is one.
    private func setStatus(_ status: SpanStatus) {
        if let recorded { return recorded.setStatus(status) }
        span.setStatus(status)
    }

    /// `Span.end()`, through the recording when there is one.
    private func endSpan() {
        if let recorded { return recorded.end() }
        span.end()
    }

    /// The exchange's own attributes with `outcome`'s, handed to the span once as it ends: one
    /// list built once, rather than copied out of the span and back for each attribute (an
    /// unsampled span records nothing, and nothing is built for it). Those every exchange of
    /// the origin and stage has alike (method, `server.address`, `server.port`, stage) are
    /// built once per origin and stage and shared (`SharedSpanAttributes`), when the span's
    /// recording is reached directly; the slow twin builds them all into the list.
    private func endRecording(_ outcome: (inout SpanAttributeList) -> Void) {
        let full = url.absoluteString
        if let recorded,
            let shared = addresses.shared(
                for: url, absoluteString: full, key: stage.name, make: { Self.sharedAttributes(host: $0, port: $1, stage: stage.name) })
        {
            var attributes = SpanAttributeList(capacity: 3)
            attributes.append("url.full", stored: .string(full))
            outcome(&attributes)
            return recorded.end(adding: attributes, sharing: shared)
        }
        var attributes = SpanAttributeList(capacity: 9)
        attributes.append("http.request.method", stored: .string("GET"))
        attributes.append("url.full", stored: .string(full))
        if let (host, port) = addresses.of(url) {
            attributes.append("server.address", stored: .string(host))
            attributes.append("server.port", stored: .int64(Int64(port)))
        }
        attributes.append("streamservice.upstream.stage", stored: .string(stage.name))
        outcome(&attributes)
        if let recorded { return recorded.end(adding: attributes) }
        attributes.add(to: span, taker: lists)
        span.end()
    }

    /// The attributes an origin's exchanges of `stage` share, and those of its answers of
    /// `status` when given (the status code, and `error.type` from 400).
    private static func sharedAttributes(host: String, port: Int, stage: String, status: Int? = nil) -> SharedSpanAttributes {
        var list = SpanAttributeList(capacity: 6)
        list.append("http.request.method", stored: .string("GET"))
        list.append("server.address", stored: .string(host))
        list.append("server.port", stored: .int64(Int64(port)))
        list.append("streamservice.upstream.stage", stored: .string(stage))
        if let status { appendStatus(status, to: &list) }
        return SharedSpanAttributes(list)
    }

    /// An answer's `status` as attributes: the status code, and `error.type` from 400.
    private static func appendStatus(_ status: Int, to list: inout SpanAttributeList) {
        list.append("http.response.status_code", stored: .int64(Int64(status)))
        if status >= 400 { list.append("error.type", stored: .string(String(status))) }
    }

    /// Writes this span's context into an attempt's fields (`traceparent` for a W3C tracer).
    public func inject(into fields: inout HTTPHeaders) {
        if let recorded { return recorded.inject(into: &fields) }
        client.tracer?.inject(span.context, into: &fields, using: HTTPHeadersInjector())
    }

    /// This span's context for an attempt: as `traceParent`, the ids its request's head writes
    /// straight from the numbers (`HTTPClientRequest.traceParent`), when its recording names
    /// them so (`RecordedSpan.traceParent`); else written into `fields` (`inject(into:)`, the
    /// slow twin: the tests hold the two to the same bytes sent).
    public func inject(into fields: inout HTTPHeaders, traceParent: inout TraceParentIDs?) {
        if let ids = recorded?.traceParent {
            traceParent = ids
            return
        }
        inject(into: &fields)
    }

    /// `list` added to the span, through its recording when it is reached directly.
    private func add(_ list: SpanAttributeList) {
        if let recorded { return recorded.addAttributes(list) }
        list.add(to: span, taker: lists)
    }

    /// What the response cache made of the attempt: `miss`, `hit` (a 304 confirmed the stored
    /// answer) or `refreshed` (the stored answer was replaced).
    public func noteCache(_ outcome: String) {
        guard isRecording else { return }
        add(["streamservice.upstream.cache": .string(outcome)])
    }

    /// Whether the attempt `led` its single flight (sent the request) or `joined` another's.
    public func noteFlight(_ role: String) {
        guard isRecording else { return }
        add(["streamservice.upstream.single_flight": .string(role)])
    }

    /// A retry is due after `delay` for `error`.
    func retrying(_ number: Int, after delay: Duration, error: any Error) {
        guard isRecording else { return }
        add(["http.request.resend_count": .int64(Int64(number))])
        let event = SpanEvent(name: "retry", attributes: [
            "streamservice.retry.number": .int64(Int64(number)),
            "streamservice.retry.delay_ms": .int64(delay.components.seconds * 1000 + delay.components.attoseconds / 1_000_000_000_000_000),
            "error.type": .string(Self.errorType(UpstreamError(classifying: error))),
        ])
        if let recorded { return recorded.addEvent(event) }
        span.addEvent(event)
    }

    /// The exchange's answer (after any retries).
    func end(status: Int) {
        guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
        guard isRecording else { return endSpan() }
        if status >= 400 { setStatus(SpanStatus(code: .error)) }
        // `url.full` is the span's own attribute, the rest (the status's too) shared by the
        // origin's exchanges of the stage with that status: no list is made for the span (about
        // 870 instructions a CLIENT span, 3.78 k -> 2.91 k; `/users` at 100 %: 2,887,734 -> 2,858,761
        // a request). `endRecording` is the slow twin.
        if let recorded {
            let full = url.absoluteString
            if let shared = addresses.shared(
                for: url, absoluteString: full, key: stage.name, variant: status,
                make: { Self.sharedAttributes(host: $0, port: $1, stage: stage.name, status: status) })
            {
                return recorded.end(adding: "url.full", string: full, sharing: shared)
            }
        }
        endRecording { Self.appendStatus(status, to: &$0) }
    }

    /// The exchange failed for good.
    func end(failure: UpstreamError) {
        guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
        guard isRecording else { return endSpan() }
        setStatus(SpanStatus(code: .error, message: String(describing: failure)))
        endRecording { attributes in
            if case .status(let code, _) = failure { attributes.append("http.response.status_code", stored: .int64(Int64(code))) }
            attributes.append("error.type", stored: .string(Self.errorType(failure)))
        }
    }

    /// A recorded span not ended by its exchange's answer or failure: the exchange's subscriber
    /// went away first, and the exchange let its span go.
    deinit {
        if isRecording { endCancelled() }
    }

    /// The exchange's subscriber went away first.
    func endCancelled() {
        guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
        guard isRecording else { return endSpan() }
        endRecording { attributes in attributes.append("streamservice.upstream.cancelled", stored: .bool(true)) }
    }

    /// A low-cardinality name of a failure (OpenTelemetry's `error.type`): the status code, or
    /// the kind of failure.
    static func errorType(_ error: UpstreamError) -> String {
        switch error {
        case .status(let code, _): String(code)
        case .connection: "connection"
        case .timeout: "timeout"
        case .deadlineExceeded: "deadline_exceeded"
        case .rateLimited: "rate_limited"
        case .malformed: "malformed"
        }
    }

    public static func == (lhs: UpstreamSpan, rhs: UpstreamSpan) -> Bool { lhs === rhs }
}
