// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Streams

/// The bookkeeping of answering one request, on either protocol (`AnswerDriver`'s `Answer`): the
/// handler's and the streamed body's subscriptions, and what the access log reports. Where the
/// answer is in its life (`AnswerLife`) is each protocol's own: `Exchange`'s two flags on
/// HTTP/1.1, the stream's `HTTP2StreamState` on HTTP/2.
/// `Exchange` (HTTP/1.1) and `HTTP2Stream` (HTTP/2) are this plus what their protocol needs.
/// The stored properties are `final`: reading them is a plain load, as it was in each subclass.
// @unchecked: confined to its connection's EventLoop queue, which serialises every access the way a lock would.
class AnswerState: @unchecked Sendable {
    /// When the request was handed to its handler: the access log's duration runs from here.
    /// Unchecked: set once before the answer starts and read once when it ends, on the connection's
    /// loop; a checked access here was the one run-time exclusivity check a request added.
    @exclusivity(unchecked) final var startedAt: ContinuousClock.Instant
    final var handlerSubscription: Disposable?
    final var bodySubscription: Disposable?
    final var status = 0
    final var bodyBytes = 0
    /// A streamed response's last words at a graceful shutdown (an SSE event).
    final var shutdownTrailer: [UInt8]?
    /// The request's SERVER span when the server traces (`ServerContext.tracer`), ended with the answer.
    final var serverSpan: ServerSpan?

    init(startedAt: ContinuousClock.Instant = .now) {
        self.startedAt = startedAt
    }

    /// A streamed response's body is being watched.
    final var isStreaming: Bool { bodySubscription != nil }

    /// Keeps the handler's subscription, or disposes it when it is not `wanted` (the handler
    /// answered while it was being watched, or the request is no longer its connection's).
    final func keepHandler(_ subscription: Disposable, wanted: Bool) {
        if !wanted {
            subscription.dispose()
        } else {
            handlerSubscription = subscription
        }
    }

    /// Keeps the streamed body's subscription and returns true, or disposes it and returns false
    /// when it is not `wanted` (the answer finished while it was being watched, or the request is
    /// no longer its connection's).
    final func keepBody(_ subscription: Disposable, wanted: Bool) -> Bool {
        guard wanted else {
            subscription.dispose()
            return false
        }
        bodySubscription = subscription
        return true
    }

    /// Cancels whatever upstream work the answer still holds.
    final func disposeSubscriptions() {
        handlerSubscription?.dispose()
        handlerSubscription = nil
        bodySubscription?.dispose()
        bodySubscription = nil
    }
}

/// Where one answer is in its life, as its protocol keeps it (`AnswerDriver` reads it).
protocol AnswerLife: AnswerState {
    /// The handler's answer, or a problem in its place, is taken: later handler events are dropped.
    var responded: Bool { get }
    /// Takes the answer, before its head is written.
    func markResponded()
    /// The answer is over: its end was written, or its connection or stream closed before it.
    var finished: Bool { get }
}
