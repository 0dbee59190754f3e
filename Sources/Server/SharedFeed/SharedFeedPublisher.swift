import StreamServiceConcurrency
import Redis

/// Sends this replica's events to the shared stream without ever making the
/// caller wait: events go into a bounded queue, and batches of up to
/// `batchSize` are pipelined to Redis, a few batches at a time, while it is reachable.
///
/// While Redis is down, paused or refusing, the queue holds what was produced
/// (up to `capacity`), and it is sent when Redis is back; beyond that, new events
/// are dropped and counted. Ids are handed out by Redis, so a dropped event
/// leaves no hole in the ids: no replica ever sees a silent gap.
final class SharedFeedPublisher: Sendable {
    struct Entry: Sendable {
        let event: String
        let data: String
        /// Stored beside the data, so readers filter without decoding it.
        var pipeline = ""
        /// Set for clock ticks: the replica that must hold the clock lease.
        var leaseOwner = ""
        var leaseMilliseconds = 0
    }

    private struct State {
        /// Each entry with its number (see `SharedFeedScript`).
        var queue: [(number: Int, entry: Entry)] = []
        var numbered = 0
        var head = 0
        /// Entries after `head` sent and awaiting their replies.
        var sent = 0
        var batchesInFlight = 0
        /// Bumped by a failed batch, whose successors' replies are then ignored.
        var generation = 0
        var dropped = 0
        var published = 0
        var depth: Int { queue.count - head }
    }

    let capacity: Int
    private let batchSize: Int
    /// Batches pipelined at once: while Redis runs one, the next is on the wire.
    private let maxInFlight = 4
    private let connection: RedisConnection
    private let keys: SharedFeedKeys
    private let retention: Int
    private let state = Locked(State())
    /// This process's token for idempotent publishing: a restarted replica numbers from 1 again.
    private let process = String(UInt64.random(in: 1...UInt64.max), radix: 36)

    /// - Parameters:
    ///   - capacity: queued events kept while Redis is unreachable (10,000 ≈ 17 min of a 10/s feed).
    ///   - retention: the stream's approximate MAXLEN, at least the replay buffer's size.
    init(connection: RedisConnection, keys: SharedFeedKeys, retention: Int, capacity: Int = 10_000, batchSize: Int = 256) {
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

    /// Sends batches while fewer than `maxInFlight` await replies and Redis is connected;
    /// called on every enqueue, after every batch, and when the connection comes (back) up.
    func flush() {
        // Batches must reach the socket in queue order (the script skips a number below one it
        // has appended), so they are taken and written on the connection's loop, one flush at a time.
        connection.loop.executeSoon { [self] in sendBatches() }
    }

    private func sendBatches() {
        guard connection.state == .connected else { return }
        while let (generation, batch) = nextBatch() {
            let commands = batch.map { SharedFeedScript.command(keys: keys, retention: retention, entry: $0.entry, process: process, number: $0.number) }
            connection.send(batch: commands) { [self] results in acknowledge(results, generation: generation) }
        }
    }

    private func nextBatch() -> (Int, ArraySlice<(number: Int, entry: Entry)>)? {
        state.withLock { state in
            let start = state.head + state.sent
            guard state.batchesInFlight < maxInFlight, start < state.queue.count else { return nil }
            let batch = state.queue[start..<min(state.queue.count, start + batchSize)]
            state.sent += batch.count
            state.batchesInFlight += 1
            return (state.generation, batch)
        }
    }

    /// Replies come in order, and a lost connection or a timeout fails every command still
    /// waiting, so what Redis appended is exactly the leading successes (error replies count:
    /// a retry would only repeat them). After a failure, everything not acknowledged is sent
    /// again, in order; the script skips the numbers Redis had already appended.
    private func acknowledge(_ results: [Result<RESPValue, RedisError>], generation: Int) {
        let done = results.prefix { result in
            if case .failure(let error) = result, case .server = error { return true }
            return (try? result.get()) != nil
        }.count
        let more = state.withLock { state -> Bool in
            // Batches sent before a failure fail too; the failure already rewound `sent`.
            guard generation == state.generation else { return false }
            state.batchesInFlight -= 1
            state.head += done
            state.published += done
            if done == results.count {
                state.sent -= done
            } else {
                state.sent = 0
                state.batchesInFlight = 0
                state.generation += 1
            }
            if state.head == state.queue.count {
                state.queue.removeAll(keepingCapacity: true)
                state.head = 0
            } else if state.head > 4096 {
                state.queue.removeFirst(state.head)
                state.head = 0
            }
            return done == results.count
        }
        if more { flush() }
    }
}
