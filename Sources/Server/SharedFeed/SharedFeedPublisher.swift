// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Redis

/// Sends this replica's events to the shared stream without ever making the
/// caller wait: events go into a bounded queue, and batches of up to
/// `batchSize` go to Redis as one script call each, a few calls pipelined at a time,
/// while it is reachable.
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

    /// Internal for its tests; only the publisher holds one.
    struct State {
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
        /// Redis may lack the script (a new connection, or `NOSCRIPT`): the next batch goes as EVAL.
        var scriptMayBeMissing = true
        /// A `sendBatches` job is queued on the connection's loop: enqueues need not queue another.
        var flushQueued = false
        /// Numbers of batches Redis answered `NOSCRIPT` to, so certainly not appended. Should a
        /// later batch have got through meanwhile (another replica stored the script again), the
        /// script skips these when they are resent, as below a number already appended: they are
        /// then counted as dropped, never lost silently.
        var unapplied: [ClosedRange<Int>] = []
        var depth: Int { queue.count - head }

        /// Counts as dropped the events of `numbers` that the script skipped (-1) although they
        /// were never appended, and forgets the unapplied ranges up to them.
        mutating func countSkipped(_ numbers: ClosedRange<Int>, replies: [RESPValue]) {
            for (number, reply) in zip(numbers, replies) where reply.int == -1 {
                if unapplied.contains(where: { $0.contains(number) }) { dropped += 1 }
            }
            unapplied.removeAll { $0.upperBound <= numbers.upperBound }
        }

        /// Everything not acknowledged is sent again from the queue's head (the script skips what Redis appended).
        mutating func rewind() {
            sent = 0
            batchesInFlight = 0
            generation += 1
        }
    }

    let capacity: Int
    private let batchSize: Int
    /// Batches pipelined at once: while Redis runs one, the next is on the wire.
    private let maxInFlight = 4
    private let connection: RedisConnection
    private let keys: SharedFeedKeys
    /// The stream's approximate MAXLEN: the replay history plus this queue's bound. After an
    /// outage the whole queue goes to Redis in a few hundred milliseconds, faster than the
    /// replicas' readers may take it; trimmed to the history alone, a burst longer than the
    /// history lost its head before they read it, and every subscriber got a `reset` at the
    /// jump (two per failover at 700 events/s). Redis keeps at most `capacity` entries more,
    /// about 0.5 KB each: 5 MB for the default queue, whatever `--events-history` is.
    let retention: Int
    /// The highest id this replica has read: a Redis whose counter is below it lost history (`SharedFeedScript`).
    private let floor: @Sendable () -> Int
    private let state = Locked(State())
    /// This process's token for idempotent publishing: a restarted replica numbers from 1 again.
    private let process = String(UInt64.random(in: 1...UInt64.max), radix: 36)

    /// - Parameters:
    ///   - capacity: queued events kept while Redis is unreachable (10,000 ≈ 17 min of a 10/s feed).
    ///   - history: the replay buffer's size (`--events-history`); the stream keeps `history + capacity`.
    ///   - floor: the highest id this replica has read (its ingest's last id).
    init(
        connection: RedisConnection, keys: SharedFeedKeys, history: Int, capacity: Int = 10_000, batchSize: Int = 256,
        floor: @escaping @Sendable () -> Int = { 0 }
    ) {
        self.connection = connection
        self.keys = keys
        self.retention = history + capacity
        self.floor = floor
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
        // At 20,000 events/s most enqueues find a job already queued: one loop wake-up serves them all.
        let queue = state.withLock { state -> Bool in
            defer { state.flushQueued = true }
            return !state.flushQueued
        }
        // Batches must reach the socket in queue order (the script skips a number below one it
        // has appended), so they are taken and written on the connection's loop, one flush at a time.
        if queue { connection.loop.executeSoon { [self] in sendBatches() } }
    }

    /// The connection is (back) up: Redis may be a new process without the script.
    func connected() {
        state.withLock { $0.scriptMayBeMissing = true }
        flush()
    }

    private func sendBatches() {
        state.withLock { $0.flushQueued = false }
        guard connection.state == .connected else { return }
        while let (generation, batch, loadingScript) = nextBatch() {
            let command = SharedFeedScript.command(keys: keys, retention: retention, process: process, floor: floor(), batch: batch, loadingScript: loadingScript)
            let numbers = batch.first!.number...batch.last!.number
            connection.send(command) { [self] result in acknowledge(result, numbers: numbers, generation: generation) }
        }
    }

    private func nextBatch() -> (Int, ArraySlice<(number: Int, entry: Entry)>, loadingScript: Bool)? {
        state.withLock { state in
            let start = state.head + state.sent
            guard state.batchesInFlight < maxInFlight, start < state.queue.count else { return nil }
            let batch = state.queue[start..<min(state.queue.count, start + batchSize)]
            state.sent += batch.count
            state.batchesInFlight += 1
            // EVAL stores the script, so the batches pipelined behind it can call it by its SHA-1.
            defer { state.scriptMayBeMissing = false }
            return (state.generation, batch, state.scriptMayBeMissing)
        }
    }

    /// Replies come in order, and a lost connection or a timeout fails every call still
    /// waiting, so what Redis appended is exactly the leading batches that succeeded (an
    /// error reply counts as done: a retry would only repeat it). After a failure, or a
    /// `NOSCRIPT` (Redis restarted, or its scripts were flushed), everything not
    /// acknowledged is sent again, in order; the script skips the numbers Redis had
    /// already appended.
    private func acknowledge(_ result: Result<RESPValue, RedisError>, numbers: ClosedRange<Int>, generation: Int) {
        var done = true
        var missingScript = false
        if case .failure(let error) = result {
            missingScript = RedisScript.isMissingScript(error)
            if case .server = error, !missingScript { done = true } else { done = false }
        }
        let more = state.withLock { state -> Bool in
            if missingScript { state.unapplied.append(numbers) }
            // Batches sent before a failure fail too; the failure already rewound `sent`.
            guard generation == state.generation else { return false }
            guard done else {
                state.rewind()
                if missingScript { state.scriptMayBeMissing = true }
                return missingScript
            }
            if !state.unapplied.isEmpty, case .success(let reply) = result {
                state.countSkipped(numbers, replies: reply.array ?? [])
            }
            state.batchesInFlight -= 1
            state.head += numbers.count
            state.published += numbers.count
            state.sent -= numbers.count
            if state.head == state.queue.count {
                state.queue.removeAll(keepingCapacity: true)
                state.head = 0
            } else if state.head > 4096 {
                state.queue.removeFirst(state.head)
                state.head = 0
            }
            return true
        }
        if more { flush() }
    }
}
