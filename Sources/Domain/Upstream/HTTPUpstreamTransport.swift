// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import StreamServiceConcurrency
import Streams

/// The upstream transport over the HTTP library's client: requests and answers in
/// the upstream's terms, client failures as `UpstreamError`s.
public final class HTTPUpstreamTransport: UpstreamTransport {
    public let client: HTTPClient
    private let fields = FieldLists()

    public init(client: HTTPClient = HTTPClient()) {
        self.client = client
    }

    /// Idle keep-alive connections the client holds.
    public var idleConnections: Int { client.idleConnections }

    /// The client's answer in the upstream's terms, its failure classified:
    ///
    ///     client.send:  ----answer|         ----#(HTTPClientError)
    ///     send:         ----response|       ----#(UpstreamError)
    public func send(_ request: UpstreamRequest) -> DataStream<UpstreamResponse> {
        client.send(clientRequest(request), answer: UpstreamResponse.init, errors: Self.errors(of: request))
    }

    /// `send`, `observe` told of each response in the stage that makes it.
    public func send(_ request: UpstreamRequest, observing observe: @escaping @Sendable (UpstreamResponse) -> Void) -> DataStream<UpstreamResponse> {
        client.send(clientRequest(request), answer: { answer in
            let response = UpstreamResponse(answer)
            observe(response)
            return response
        }, errors: Self.errors(of: request))
    }

    /// The client keeps `UpstreamRequest.timeout` (`HTTPClientRequest.timeout`).
    public var keepsTimeouts: Bool { true }

    /// The span rides in the request (`clientRequest` injects it); the HTTP client reads no task-local.
    public var readsServiceContext: Bool { false }

    /// The client's failures classified (its `timedOut` is `UpstreamError.timeout`), a timeout
    /// that stands for the call's deadline failing with what it names.
    private static func errors(of request: UpstreamRequest) -> @Sendable (any Error) -> any Error {
        guard let timeout = request.timeout, timeout.failure != .timeout(after: timeout.after) else { return UpstreamError.init(classifying:) }
        return { error in
            if case HTTPClientError.timedOut = error { return timeout.failure }
            return UpstreamError(classifying: error)
        }
    }

    private func clientRequest(_ request: UpstreamRequest) -> HTTPClientRequest {
        var extraHeaders = request.conditions.isEmpty ? HTTPHeaders() : UpstreamRequest.fieldList(request.conditions)
        var traceParent: TraceParentIDs?
        if let span = request.span {
            span.inject(into: &extraHeaders, traceParent: &traceParent)
        } else if let fields = request.traceFields {
            if extraHeaders.isEmpty { extraHeaders = fields } else { for (name, value) in fields { extraHeaders.replaceOrAdd(name: name, value: value) } }
        }
        return HTTPClientRequest(
            method: HTTPMethod(request.method), url: request.url, headers: fields.fields(for: request.headers), extraHeaders: extraHeaders,
            traceParent: traceParent, timeout: request.timeout?.after)
    }
}

/// The header dictionaries the transport was given lately, as the client's field lists
/// (sorted by name): a client sends one shared dictionary request after request
/// (`GitHubClient.RequestHeaders`), recognised here by its storage before any comparison of
/// contents, not sorted into a new list per request (the figure: Benchmarks/README.md).
private final class FieldLists: Sendable {
    private let recent = Locked<[(headers: [String: String], fields: HTTPHeaders)]>([])
    /// The API's and the avatars' dictionaries, with room to spare.
    private static let capacity = 4

    func fields(for headers: [String: String]) -> HTTPHeaders {
        if let known = recent.withLock({ $0.first { $0.headers == headers }?.fields }) { return known }
        let fields = UpstreamRequest.fieldList(headers)
        recent.withLock { recent in
            if recent.count == Self.capacity { recent.removeFirst() }
            recent.append((headers, fields))
        }
        return fields
    }
}

extension UpstreamRequest {
    /// `headers` as the client's field list, sorted by name.
    static func fieldList(_ headers: [String: String]) -> HTTPHeaders {
        HTTPHeaders(headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }

    /// The same request for `HTTPClient`.
    var clientRequest: HTTPClientRequest {
        HTTPClientRequest(method: HTTPMethod(method), url: url, headers: Self.fieldList(headers), extraHeaders: Self.fieldList(conditions))
    }
}

extension UpstreamResponse {
    /// The client's answer, its fields kept as received.
    init(_ response: HTTPClientResponse) {
        if let received = response.received {
            self.init(status: response.status.code, wire: received, body: response.body)
        } else {
            self.init(status: response.status.code, received: response.headers, body: response.body)
        }
        rateLimit = response.rateLimit
    }
}
