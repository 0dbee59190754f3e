// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

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

    /// The longest a stream waits for its token's expiry: about three years. A token's `exp` is
    /// its issuer's number (`1e300` verifies); in milliseconds it must stay an `Int`, and in a
    /// timer's nanoseconds a `UInt64`. A stream older than this ends as `expired`, and its client
    /// reconnects.
    static let longestWaitSeconds: Double = 100_000_000

    /// The wait for `seconds` until expiry, as the timer takes it.
    static func delay(seconds: Double) -> Duration {
        let bounded = seconds.isNaN ? 0 : min(max(seconds, 0), longestWaitSeconds)
        return .milliseconds(Int((bounded * 1000).rounded(.up)))
    }

    static func ending(_ events: DataStream<[UInt8]>, after delay: Duration, on scheduler: any Scheduler) -> DataStream<[UInt8]> {
        // One stage and one timer per subscriber: every subscriber of a protected feed has one.
        events.take(for: delay, scheduler: scheduler, last: expiredEvent)
    }
}
