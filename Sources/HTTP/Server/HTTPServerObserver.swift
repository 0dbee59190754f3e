// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore

/// Callbacks for observability; they run on event-loop queues, so keep them cheap.
public struct HTTPServerObserver: Sendable {
    /// After each response (access log, `http_requests_total`, durations).
    public var requestCompleted: (@Sendable (CompletedRequest) -> Void)?
    /// When a connection opens or closes, with the new open-connection count
    /// (calls are serialised, so the last call always carries the current count).
    public var connectionsChanged: (@Sendable (Int) -> Void)?
    /// When the server answers a request or connection with an error of its own (see `Rejection`).
    public var requestRejected: (@Sendable (Rejection) -> Void)?
    /// When accepting pauses because `accept()` fails (descriptors exhausted) and when it resumes.
    public var acceptPauseChanged: (@Sendable (AcceptPause) -> Void)?
    /// When a graceful shutdown's deadline passed with connections still open: what was done to them.
    public var shutdownDeadlineReached: (@Sendable (ShutdownDeadline) -> Void)?
    /// HTTP/2 streams, resets, GOAWAYs, stalls and limits reached (`HTTP2Event.isNotable` ones deserve a log line).
    public var http2Event: (@Sendable (HTTP2Event) -> Void)?
    /// When a handler's stream failed with an error that is not an `HTTPResponseError` (its client
    /// got a generic 500 with the request id): the one place that sees the error itself.
    public var handlerFailed: (@Sendable (HandlerFailure) -> Void)?

    /// An observer with the callbacks given; each one left out is not called.
    public init(
        requestCompleted: (@Sendable (CompletedRequest) -> Void)? = nil,
        connectionsChanged: (@Sendable (Int) -> Void)? = nil,
        requestRejected: (@Sendable (Rejection) -> Void)? = nil,
        acceptPauseChanged: (@Sendable (AcceptPause) -> Void)? = nil,
        shutdownDeadlineReached: (@Sendable (ShutdownDeadline) -> Void)? = nil,
        http2Event: (@Sendable (HTTP2Event) -> Void)? = nil,
        handlerFailed: (@Sendable (HandlerFailure) -> Void)? = nil
    ) {
        self.requestCompleted = requestCompleted
        self.connectionsChanged = connectionsChanged
        self.requestRejected = requestRejected
        self.acceptPauseChanged = acceptPauseChanged
        self.shutdownDeadlineReached = shutdownDeadlineReached
        self.http2Event = http2Event
        self.handlerFailed = handlerFailed
    }
}
