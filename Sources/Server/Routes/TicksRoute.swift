// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import Streams

/// `GET /ticks?everyMs=&count=`: the "hello world" pipeline, `interval → take → map`.
/// Event K (K = 0, 1, …) is due K × everyMs after the request and carries
/// `id: K` and `data: tick K`; after `count` events the response ends.
///
/// A reconnecting EventSource sends `Last-Event-ID: K`; it resumes with event
/// K + 1 at once. When K is already the last event the feed is over and the
/// answer is `204`, which tells the EventSource to stop reconnecting.
struct TicksRoute: Sendable {
    /// From 10 ms: a tick costs a wake-up and a write, and 1 ms let one stream ask for a
    /// thousand a second (a hundred streams on one connection were a third of a core).
    static let everyMsRange = 10...60_000
    static let countRange = 1...1_000_000
    static let defaultEveryMs = 1000
    static let defaultCount = 10

    let responder: EventStreamResponder

    func handle(_ request: Request) -> DataStream<Response> {
        request.withQuery(Self.pace, ignoring: IgnoredQueryParameters.names) { everyMs, count in
            var resumeAt = 0
            if let lastSeen = request.lastEventID, lastSeen >= 0 {
                guard lastSeen < count - 1 else { return .just(EventStreamResponder.noMoreEvents()) }
                resumeAt = lastSeen + 1
            }
            let first = resumeAt
            // On the connection's own loop: each tick is written where it fires, and all feeds share one timer per loop.
            let scheduler: any Scheduler = request.loopScheduler ?? QueueScheduler.global
            let ticks = DataStream.interval(.milliseconds(everyMs), scheduler: scheduler)
                .take(count - first)
                .map { index in
                    let k = first + index
                    return ServerSentEvent(id: String(k), data: "tick \(k)")
                }
            return .just(responder.response(ticks))
        }
    }

    /// `?everyMs=` and `?count=`, validated.
    static func pace(_ parameters: QueryParameters) throws(InvalidQueryParameter) -> (everyMs: Int, count: Int) {
        (try parameters.integer("everyMs", in: everyMsRange, default: defaultEveryMs),
         try parameters.integer("count", in: countRange, default: defaultCount))
    }
}
