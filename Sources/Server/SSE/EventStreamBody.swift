import NetCore
import Streams

/// The body of an SSE response: a prelude, then the feed's encoded events
/// with heartbeats mixed in, ending when the feed ends.
///
///     prelude:    p
///     events:     --a-----b-------|
///     heartbeats: -----h-----h-----h--
///     body:       p-a--h--b--h----|
///
/// Both sources may emit from different threads; delivery to the watcher is
/// serialized, and the feed's end or error disposes the heartbeat subscription.
enum EventStreamBody {
    static func make(prelude: [UInt8]? = nil, events: DataStream<[UInt8]>, heartbeats: DataStream<[UInt8]>?) -> DataStream<[UInt8]> {
        DataStream { watcher in
            let gate = PThreadMutex(false)
            let deliver: @Sendable (Event<[UInt8]>) -> Void = { event in
                gate.withLock { finished in
                    guard !finished else { return }
                    if event.isTerminal { finished = true }
                    watcher.event(event)
                }
            }
            if let prelude { deliver(.data(prelude)) }
            let beatSubscription = heartbeats?.watch(data: { bytes in deliver(.data(bytes)) })
            let eventSubscription = events.watch { event in
                deliver(event)
                if event.isTerminal { beatSubscription?.dispose() }
            }
            return Disposable {
                beatSubscription?.dispose()
                eventSubscription.dispose()
            }
        }
    }
}
