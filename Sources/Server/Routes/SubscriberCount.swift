import CoreMetrics
import HTTP
import Streams
import Synchronization

extension DataStream {
    /// This stream, counting its live subscriptions in `gauge` (up on subscribe,
    /// down exactly once when it ends, fails or is disposed).
    func counted(in gauge: Meter?) -> DataStream<Element> {
        guard let gauge else { return self }
        return DataStream { watcher in
            let counted = Atomic(true)
            let release: @Sendable () -> Void = {
                if counted.exchange(false, ordering: .acquiringAndReleasing) { gauge.decrement() }
            }
            gauge.increment()
            let subscription = self.watch { event in
                if event.isTerminal { release() }
                watcher.event(event)
            }
            return Disposable {
                release()
                subscription.dispose()
            }
        }
    }
}
