import Dispatch
import Streams
import Synchronization

/// A few serial queue schedulers handed out round-robin, so per-client timers
/// (one `interval` per `/ticks` client) spread over the cores instead of
/// queueing behind each other on one queue.
public final class SchedulerPool: Sendable {
    private let schedulers: [QueueScheduler]
    private let cursor = Atomic<Int>(0)

    public init(count: Int, label: String) {
        schedulers = (0..<max(1, count)).map { QueueScheduler(label: "\(label).\($0)", qos: .userInitiated) }
    }

    public func next() -> QueueScheduler {
        let index = cursor.wrappingAdd(1, ordering: .relaxed).oldValue
        return schedulers[Int(index.magnitude % UInt(schedulers.count))]
    }
}
