// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// What the server reports once a response has been fully written (or the
/// connection died while writing it): the input for access logs and metrics.
public struct CompletedRequest: Sendable {
    /// The request's method.
    public var method: HTTPMethod
    /// The request's decoded path, without the query.
    public var path: String
    /// The request target as sent, query included (for an access log, not for metric labels).
    public var target: String
    /// The matched route pattern (`/books/{id}`); nil when no route matched,
    /// so metrics can use a single label for unknown paths.
    public var routePattern: String?
    /// The status code sent.
    public var status: Int
    /// From the request's head being read to the response's last byte being written.
    public var duration: Duration
    /// Body bytes written (after compression), excluding the head.
    public var bodyBytes: Int
    /// The request's id, as sent back in `X-Request-ID`.
    public var requestID: String
    /// The client's address, as `host:port`.
    public var remoteAddress: String
    /// The request's `User-Agent`, if it sent one.
    public var userAgent: String?
    /// False when the client went away before the response was complete.
    public var completed: Bool
    /// The protocol the request came in on.
    public var protocolLabel: HTTPProtocolLabel
    /// The request's SERVER span (trace and span id) when the server traces; nil otherwise.
    public var trace: TraceIdentity?

    /// A report with these values (tests build their own to drive an observer).
    public init(method: HTTPMethod, path: String, target: String, routePattern: String?, status: Int, duration: Duration, bodyBytes: Int, requestID: String, remoteAddress: String, userAgent: String?, completed: Bool, protocolLabel: HTTPProtocolLabel = .h1, trace: TraceIdentity? = nil) {
        self.method = method
        self.path = path
        self.target = target
        self.routePattern = routePattern
        self.status = status
        self.duration = duration
        self.bodyBytes = bodyBytes
        self.requestID = requestID
        self.remoteAddress = remoteAddress
        self.userAgent = userAgent
        self.completed = completed
        self.protocolLabel = protocolLabel
        self.trace = trace
    }
}

/// The protocol of a request or connection, as metrics and logs label it.
public enum HTTPProtocolLabel: String, Sendable {
    /// HTTP/1.0 or HTTP/1.1.
    case h1
    /// HTTP/2, over TLS or cleartext.
    case h2
}
