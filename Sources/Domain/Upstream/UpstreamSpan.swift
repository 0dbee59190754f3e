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
    let span: any Span
    let tracer: any Tracer
    private let ended = Atomic<Bool>(false)

    /// A span begun now, child of the context current now (the subscription's).
    init(tracer: any Tracer, url: URL, stage: UpstreamStage) {
        self.tracer = tracer
        span = tracer.startSpan("GET", context: ServiceContext.current ?? .topLevel, ofKind: .client)
        // An unsampled span records nothing (it still propagates its ids): nothing is built for it.
        guard span.isRecording else { return }
        var attributes = SpanAttributes()
        attributes["http.request.method"] = "GET"
        attributes["url.full"] = url.absoluteString
        let secure = url.scheme?.lowercased() == "https"
        if let host = url.host {
            attributes["server.address"] = host
            attributes["server.port"] = url.port ?? (secure ? 443 : 80)
        }
        attributes["streamservice.upstream.stage"] = stage.name
        span.attributes.merge(attributes)
    }

    var context: ServiceContext { span.context }

    /// Writes this span's context into an attempt's fields (`traceparent` for a W3C tracer).
    public func inject(into fields: inout HTTPHeaders) {
        tracer.inject(span.context, into: &fields, using: HTTPHeadersInjector())
    }

    /// What the response cache made of the attempt: `miss`, `hit` (a 304 confirmed the stored
    /// answer) or `refreshed` (the stored answer was replaced).
    public func noteCache(_ outcome: String) {
        guard span.isRecording else { return }
        span.attributes["streamservice.upstream.cache"] = outcome
    }

    /// Whether the attempt `led` its single flight (sent the request) or `joined` another's.
    public func noteFlight(_ role: String) {
        guard span.isRecording else { return }
        span.attributes["streamservice.upstream.single_flight"] = role
    }

    /// A retry is due after `delay` for `error`.
    func retrying(_ number: Int, after delay: Duration, error: any Error) {
        guard span.isRecording else { return }
        span.attributes["http.request.resend_count"] = number
        span.addEvent(SpanEvent(name: "retry", attributes: [
            "streamservice.retry.number": .int64(Int64(number)),
            "streamservice.retry.delay_ms": .int64(delay.components.seconds * 1000 + delay.components.attoseconds / 1_000_000_000_000_000),
            "error.type": .string(Self.errorType(UpstreamError(classifying: error))),
        ]))
    }

    /// The exchange's answer (after any retries).
    func end(status: Int) {
        guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
        guard span.isRecording else { return span.end() }
        span.attributes["http.response.status_code"] = status
        if status >= 400 {
            span.attributes["error.type"] = String(status)
            span.setStatus(SpanStatus(code: .error))
        }
        span.end()
    }

    /// The exchange failed for good.
    func end(failure: UpstreamError) {
        guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
        guard span.isRecording else { return span.end() }
        if case .status(let code, _) = failure { span.attributes["http.response.status_code"] = code }
        span.attributes["error.type"] = Self.errorType(failure)
        span.setStatus(SpanStatus(code: .error, message: String(describing: failure)))
        span.end()
    }

    /// The exchange's subscriber went away first.
    func endCancelled() {
        guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
        if span.isRecording { span.attributes["streamservice.upstream.cancelled"] = true }
        span.end()
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
