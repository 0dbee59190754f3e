import NetCore
import Streams

/// The body of an SSE response: the feed's encoded events with heartbeats
/// mixed in, ending when the feed ends.
///
///     events:     --a-----b-------|
///     heartbeats: -----h-----h-----h--
///     body:       --a--h--b--h----|
///
/// Both sources may emit from different threads; delivery to the watcher is
/// serialized, and the feed's end or error disposes the heartbeat subscription.
enum EventStreamBody {
    static func make(events: DataStream<[UInt8]>, heartbeats: DataStream<[UInt8]>?) -> DataStream<[UInt8]> {
        guard let heartbeats else { return events }
        return DataStream { watcher in
            let gate = PThreadMutex(false)
            let deliver: @Sendable (Event<[UInt8]>) -> Void = { event in
                gate.withLock { finished in
                    guard !finished else { return }
                    if event.isTerminal { finished = true }
                    watcher.event(event)
                }
            }
            let beatSubscription = heartbeats.watch(data: { bytes in deliver(.data(bytes)) })
            let eventSubscription = events.watch { event in
                deliver(event)
                if event.isTerminal { beatSubscription.dispose() }
            }
            return Disposable {
                beatSubscription.dispose()
                eventSubscription.dispose()
            }
        }
    }
}
