// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import CoreMetrics
import NetCore
import Streams

/// Turns Server-Sent Events feeds into responses with what every event stream needs: the
/// headers that keep proxies from buffering or caching it, a first message that sets the
/// client's reconnection delay, heartbeats that keep idle connections open, a `shutdown` event
/// at a graceful shutdown (the client reconnects, to another instance), and a gauge of open streams.
///
/// A client that reads slower than its feed runs is cut off rather than buffered for ever: the
/// server's slow-consumer policy (`HTTPLimits.streamBuffer`) ends its stream once that many bytes
/// wait, and an `EventSource` reconnects with `Last-Event-ID` (`Request.lastEventID`), from where
/// a feed with history (`SSEBroadcaster`) resumes or says `reset`.
///
///     let heartbeat = HeartbeatClock(period: .seconds(15))
///     heartbeat.start()   // a clock beats only once started
///     let responder = EventStreamResponder(heartbeat: heartbeat, subscribers: nil)
///     router.get("/ticks") { _ in
///         .just(responder.response(DataStream.interval(.seconds(1), scheduler: scheduler)
///             .map { ServerSentEvent(id: String($0), data: "tick \($0)") }))
///     }
public struct EventStreamResponder: Sendable {
    /// The `Content-Type` of every event stream.
    public static let contentType = "text/event-stream; charset=utf-8"
    /// Sent as the last message when the server shuts down gracefully; clients
    /// may reconnect (to another instance) after their retry delay.
    public static let shutdownEvent = ServerSentEvent(event: "shutdown", data: "server shutting down").encoded

    /// Reconnection delay sent to clients as the stream's first message.
    public static let reconnectDelayMilliseconds = 2000

    /// The first message of every stream: it sets the client's reconnection delay
    /// and gets the response head and first bytes through proxies at once.
    static let prelude = ServerSentEvent(retry: reconnectDelayMilliseconds).encoded

    /// The clock whose beats every stream sends while idle; nil sends none.
    public let heartbeat: HeartbeatClock?
    /// Counts the streams open (`sse_subscribers`); nil counts nothing.
    public let subscribers: Meter?

    /// A responder for every event stream of a service.
    ///
    /// - Parameters:
    ///   - heartbeat: the clock whose beats every stream sends while idle (started with
    ///     ``HeartbeatClock/start()``); nil sends none.
    ///   - subscribers: the gauge of open streams; nil counts nothing.
    public init(heartbeat: HeartbeatClock?, subscribers: Meter?) {
        self.heartbeat = heartbeat
        self.subscribers = subscribers
    }

    /// A `200` event stream of already-encoded messages.
    public func response(encoded events: DataStream<[UInt8]>) -> Response {
        // The gauge rides on the body's own gate (`opened`/`closed`) rather than a `counted(in:)`
        // stage, its slow twin: one stage fewer for every event of every subscriber.
        var opened: (@Sendable () -> Void)?
        var closed: (@Sendable () -> Void)?
        if let gauge = subscribers {
            opened = { gauge.increment() }
            closed = { gauge.decrement() }
        }
        let body = EventStreamBody.make(prelude: Self.prelude, events: events, heartbeats: heartbeat?.stream, opened: opened, closed: closed)
        var response = Response.stream(body, contentType: Self.contentType, shutdownTrailer: Self.shutdownEvent)
        response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
        response.headers.replaceOrAdd(name: "X-Accel-Buffering", value: "no")
        return response
    }

    /// A `200` event stream of messages.
    public func response(_ events: DataStream<ServerSentEvent>) -> Response {
        response(encoded: events.map { $0.encoded })
    }

    /// `204 No Content`: tells an EventSource the feed is over and it must not reconnect.
    public static func noMoreEvents() -> Response {
        Response(status: .noContent, headers: ["Cache-Control": "no-store"])
    }
}

extension Request {
    /// The `Last-Event-ID` a reconnecting EventSource sends, as a number; nil when absent or not a
    /// number. Decimal digits beyond `Int.max` read as `Int.max`: an id above any ever issued,
    /// which a feed answers with `reset` like every other id it never handed out.
    public var lastEventID: Int? {
        guard let text = headers["Last-Event-ID"]?.trimmingWhitespace() else { return nil }
        if let id = Int(text) { return id }
        return !text.isEmpty && text.utf8.allSatisfy({ (48...57).contains($0) }) ? .max : nil
    }
}
