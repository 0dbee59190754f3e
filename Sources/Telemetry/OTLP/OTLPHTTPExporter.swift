// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import NetCore
import StreamServiceConcurrency
import Streams

/// OTLP/HTTP on the project's own `HTTPClient` (no SwiftNIO): each batch is one POST of an
/// `ExportTraceServiceRequest` (protobuf or OTLP/JSON, gzip when asked) to the traces endpoint,
/// each attempt bounded by the timeout, retried as `ExportRetry` says. Timers run on `scheduler`.
public final class OTLPHTTPExporter: SpanExporter {
    public let settings: TracingSettings
    public let retry: ExportRetry
    private let client: HTTPClient
    private let scheduler: any Scheduler
    private let progress = Locked(Progress())
    /// The resource and scope around spans written as they ended (protobuf only).
    private let framing: OTLPProtobufEncoding.Framing

    /// What the exporter did so far: attempts started, attempts ended, and the decision after the latest one.
    public struct Progress: Sendable, Equatable {
        public var attempts = 0
        public var decisions = 0
        public var lastDecision: ExportRetry.Decision?
        /// No attempt is waiting for its answer.
        public var isIdle: Bool { attempts == decisions }
    }

    /// Read by the tests and the benchmark, which step virtual time from one decision to the next.
    public var progressSoFar: Progress { progress.withLock { $0 } }

    public init(settings: TracingSettings, client: HTTPClient, scheduler: any Scheduler, retry: ExportRetry = ExportRetry()) {
        self.settings = settings
        self.client = client
        self.scheduler = scheduler
        self.retry = retry
        framing = OTLPProtobufEncoding.Framing(resource: settings.resource)
    }

    /// The request body for `batch`, before compression.
    public func encode(_ batch: [SpanRecord]) -> [UInt8] {
        switch settings.wireProtocol {
        case .protobuf: OTLPProtobufEncoding.encode(batch, resource: settings.resource)
        case .json: OTLPJSONEncoding.encode(batch, resource: settings.resource)
        }
    }

    /// The protobuf request body for spans written as `ScopeSpans.spans` fields as they ended
    /// (`EncodedSpanQueue`): `encode` of the same spans, byte for byte.
    func body(ofEncoded spans: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        framing.body(spans: spans)
    }

    public func export(_ batch: [SpanRecord], completion: @escaping @Sendable (Bool) -> Void) {
        export(body: encode(batch), completion: completion)
    }

    /// Sends `body` (compressed when asked), retried as `retry` says.
    func export(body: [UInt8], completion: @escaping @Sendable (Bool) -> Void) {
        var body = body
        var headers = requestHeaders
        if settings.gzip, let compressed = try? Gzip.compress(body) {
            body = compressed
            headers.replaceOrAdd(name: "Content-Encoding", value: "gzip")
        }
        let request = HTTPClientRequest(method: .post, url: settings.tracesEndpoint, headers: headers, body: body)
        attempt(request, number: 1, completion: completion)
    }

    /// Sends the protobuf batch whose spans `spans` holds (written as `ScopeSpans.spans` fields as
    /// they ended), retried as `retry` says: framed around the buffer as it lies, which the
    /// request keeps (`FramedSpans`), or, compressed, framed into one array (`body(ofEncoded:)`).
    /// Returns the buffer when the request did not keep it, for the processor's next batch.
    func export(encoded spans: consuming ProtobufWriter, completion: @escaping @Sendable (Bool) -> Void) -> ProtobufWriter? {
        guard !settings.gzip else {
            export(body: spans.withBytes { body(ofEncoded: $0) }, completion: completion)
            return spans
        }
        let lent = OTLPProtobufEncoding.FramedSpans(framing: framing, spans: spans)
        let request = HTTPClientRequest(method: .post, url: settings.tracesEndpoint, headers: requestHeaders, lentBody: lent)
        attempt(request, number: 1, completion: completion)
        return nil
    }

    /// The configured fields and `Content-Type`.
    private var requestHeaders: HTTPHeaders {
        var headers = HTTPHeaders(settings.headers)
        headers.replaceOrAdd(name: "Content-Type", value: settings.wireProtocol.contentType)
        return headers
    }

    private func attempt(_ request: HTTPClientRequest, number: Int, completion: @escaping @Sendable (Bool) -> Void) {
        let ended = OnceFlag()
        let subscription = Locked<Disposable?>(nil)
        progress.withLock { $0.attempts += 1 }
        let finish: @Sendable (ExportRetry.Outcome) -> Void = { [self] outcome in
            let decision = retry.decide(after: number, outcome, jitter: Double.random(in: 0..<1))
            if case .retry(let delay) = decision {
                scheduler.schedule(after: delay) { [self] in attempt(request, number: number + 1, completion: completion) }
            }
            // Recorded once the retry is scheduled: a test that sees the decision may step time at once.
            progress.withLock {
                $0.decisions += 1
                $0.lastDecision = decision
            }
            switch decision {
            case .delivered: completion(true)
            case .giveUp: completion(false)
            case .retry: break
            }
        }
        let timer = scheduler.schedule(after: settings.timeout) {
            guard ended.set() else { return }
            subscription.withLock { $0 }?.dispose()
            finish(.noAnswer)
        }
        let watching = client.send(request).watch(
            data: { response in
                guard ended.set() else { return }
                timer.dispose()
                finish(.answered(status: response.status.code, retryAfter: response.header("Retry-After")))
            },
            error: { _ in
                guard ended.set() else { return }
                timer.dispose()
                finish(.noAnswer)
            })
        subscription.withLock { $0 = watching }
    }
}
