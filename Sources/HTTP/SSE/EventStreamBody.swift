// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import NetCore
import Streams

/// The body of an SSE response: a prelude, then the feed's encoded events
/// with heartbeats mixed in, ending when the feed ends.
///
///     prelude:    p
///     events:     --a-----b-------|
///     heartbeats: -----h-----h-----h--
///     body:       p-a--h--b-------|
///
/// A heartbeat only keeps an idle stream open, so a stream that carried an
/// event since the previous beat skips the next one (`b` above): a busy feed
/// costs no extra writes, and 10,000 clients of a broadcast get no burst of
/// 10,000 comments on top of the events. No stream stays silent for two
/// heartbeat periods, and a quiet one gets its first beat within one period
/// of connecting.
///
/// Both sources may emit from different threads; delivery to the watcher is
/// serialized, and the feed's end or error disposes the heartbeat subscription.
///
/// `opened` and `closed` bracket a subscription (a gauge of open streams):
/// `opened` as it starts, `closed` exactly once when the body ends, fails or is
/// disposed. They ride on this body's own delivery (its gate sees the end), so
/// counting adds no stage that every event of every subscriber passes through;
/// the slow twin is the same body followed by `call(error:end:watched:disposed:)`
/// (`counted(in:)` in the service), and `SubscriberCountTests` checks that both
/// count and deliver alike.
public enum EventStreamBody {
    private struct Gate {
        var finished = false
        var eventSinceBeat = false
    }

    /// The body: `prelude` if any, then `events` with `heartbeats` mixed in as described above; `opened` and `closed` bracket each subscription.
    public static func make(
        prelude: [UInt8]? = nil,
        events: DataStream<[UInt8]>,
        heartbeats: DataStream<[UInt8]>?,
        opened: (@Sendable () -> Void)? = nil,
        closed: (@Sendable () -> Void)? = nil
    ) -> DataStream<[UInt8]> {
        DataStream { watcher in
            opened?()
            let gate = Locked(Gate())
            // Not in the gate: the body's end reaches its watcher inside the gate's lock, and a
            // watcher disposes its subscription (this body's `Disposable`) as the end arrives.
            let closing = OnceFlag()
            let deliver: @Sendable (Event<[UInt8]>, _ isBeat: Bool) -> Void = { event, isBeat in
                gate.withLock { gate in
                    guard !gate.finished else { return }
                    if isBeat {
                        defer { gate.eventSinceBeat = false }
                        guard !gate.eventSinceBeat else { return }
                    } else {
                        gate.eventSinceBeat = true
                    }
                    if event.isTerminal {
                        gate.finished = true
                        // Counted down before the end travels on, as `call(error:end:)` does in the slow twin.
                        if let closed, closing.set() { closed() }
                    }
                    watcher.event(event)
                }
            }
            // The prelude is no event: counting it would skip the first beat and leave a quiet
            // stream silent for up to two periods (22 s with a 15 s heartbeat) after connecting.
            if let prelude { watcher.data(prelude) }
            let beatSubscription = heartbeats?.watch(data: { bytes in deliver(.data(bytes), true) })
            let eventSubscription = events.watch { event in
                deliver(event, false)
                if event.isTerminal { beatSubscription?.dispose() }
            }
            return Disposable {
                beatSubscription?.dispose()
                eventSubscription.dispose()
                if let closed, closing.set() { closed() }
            }
        }
    }
}
