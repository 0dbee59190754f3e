import ConcurrencyHelpers
import Redis

/// Sends this replica's events to the shared stream without ever making the
/// caller wait: events go into a bounded queue, and batches of up to
/// `batchSize` are pipelined to Redis one batch at a time while it is reachable.
///
/// While Redis is down, paused or refusing, the queue holds what was produced
/// (up to `capacity`), and it is sent when Redis is back; beyond that, new events
/// are dropped and counted. Ids are handed out by Redis, so a dropped event
/// leaves no hole in the ids: no replica ever sees a silent gap.
final class SharedFeedPublisher: Sendable {
    struct Entry: Sendable {
        let event: String
        let data: String
        /// Set for clock ticks: the replica that must hold the clock lease.
        var leaseOwner = ""
        var leaseMilliseconds = 0
    }

    private struct State {
        /// Each entry with its number (see `SharedFeedScript`).
        var queue: [(number: Int, entry: Entry)] = []
        var numbered = 0
        var head = 0
        var inFlight = false
        var dropped = 0
        var published = 0
        var depth: Int { queue.count - head }
    }

    let capacity: Int
    private let batchSize: Int
    private let connection: RedisConnection
    private let keys: SharedFeedKeys
    private let retention: Int
    private let state = Locked(State())
    /// This process's token for idempotent publishing: a restarted replica numbers from 1 again.
    private let process = String(UInt64.random(in: 1...UInt64.max), radix: 36)

    /// - Parameters:
    ///   - capacity: queued events kept while Redis is unreachable (10,000 ≈ 17 min of a 10/s feed).
    ///   - retention: the stream's approximate MAXLEN, at least the replay buffer's size.
    init(connection: RedisConnection, keys: SharedFeedKeys, retention: Int, capacity: Int = 10_000, batchSize: Int = 512) {
        self.connection = connection
        self.keys = keys
        self.retention = retention
        self.capacity = capacity
        self.batchSize = batchSize
    }

    var depth: Int { state.withLock { $0.depth } }
    var dropped: Int { state.withLock { $0.dropped } }
    var published: Int { state.withLock { $0.published } }

    /// Queues `entry` (or drops it when the queue is full) and returns at once.
    func enqueue(_ entry: Entry) {
        let accepted = state.withLock { state -> Bool in
            guard state.depth < capacity else {
                state.dropped += 1
                return false
            }
            state.numbered += 1
            state.queue.append((state.numbered, entry))
            return true
        }
        if accepted { flush() }
    }

    /// Sends the next batch unless one is in flight or Redis is not connected; called on every
    /// enqueue, after every batch, and when the connection comes (back) up.
    func flush() {
        guard connection.state == .connected else { return }
        let batch = state.withLock { state -> [(number: Int, entry: Entry)]? in
            guard !state.inFlight, state.depth > 0 else { return nil }
            state.inFlight = true
            return Array(state.queue[state.head..<min(state.queue.count, state.head + batchSize)])
        }
        guard let batch else { return }
        let commands = batch.map { SharedFeedScript.command(keys: keys, retention: retention, entry: $0.entry, process: process, number: $0.number) }
        connection.send(batch: commands) { [self] results in
            // Replies come in order and a lost connection fails every command after the first
            // failure, so the sent prefix is exactly the leading successes (and error replies,
            // which a retry would only repeat).
            let done = results.prefix { result in
                if case .failure(let error) = result, case .server = error { return true }
                return (try? result.get()) != nil
            }.count
            let more = state.withLock { state -> Bool in
                state.head += done
                state.published += done
                if state.head == state.queue.count {
                    state.queue.removeAll(keepingCapacity: true)
                    state.head = 0
                } else if state.head > 4096 {
                    state.queue.removeFirst(state.head)
                    state.head = 0
                }
                state.inFlight = false
                return done == results.count && state.depth > 0
            }
            if more { flush() }
        }
    }
}
