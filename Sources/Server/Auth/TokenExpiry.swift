import HTTP
import Streams

/// Ends an event stream when the token that opened it expires: a last `event: expired`, then
/// the end, so a browser's `EventSource` reconnects with a fresh token instead of reading on
/// with a dead one. The expiry is timed on the stream's own scheduler (the connection's loop in
/// the server, a `TestScheduler` in tests).
///
///     events:   --a---b---c---
///     expiry:   ----------x
///     result:   --a---b---E|
///     events:   --a-|                 (ended first, e.g. shutdown: no `expired`)
///     result:   --a-|
enum TokenExpiry {
    static let expiredEvent = ServerSentEvent(event: "expired", data: "the access token has expired; reconnect with a new one").encoded

    static func ending(_ events: DataStream<[UInt8]>, after delay: Duration, on scheduler: any Scheduler) -> DataStream<[UInt8]> {
        // One stage and one timer per subscriber: every subscriber of a protected feed has one.
        events.take(for: delay, scheduler: scheduler, last: expiredEvent)
    }
}
