// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Dispatch
import Redis

/// Reads the shared stream into this replica's event log: one blocking XREAD
/// loop on a connection of its own, so every replica shows the same items with
/// the same ids in the same order (its own events arrive this way too).
///
/// On the first connection it fills the replay buffer from the stream's tail
/// (XREVRANGE). Each round also runs `SharedFeedScript.observe` with the last id
/// read as floor, which answers the dataset's epoch: a new epoch means the history
/// changed (Redis restarted empty or from older data, flushed, or failed over before
/// replicating what this or another replica read), so the log restarts past
/// every id it handed out and past the new history's base, and live clients get
/// `reset` there. After every reconnection the first round checks that the last
/// entry read is still in the stream as it was read, which catches a changed history
/// behind an unchanged counter (another writer reused the lost ids first). A
/// reconnect to the same history just continues after the last id; if the stream was
/// trimmed past it meanwhile, the jump in ids makes the log send `reset`.
final class SharedFeedIngest: Sendable {
    /// One stream entry: its SSE id, event name and data.
    struct Entry: Sendable, Equatable {
        let id: Int
        let event: String
        var pipeline = ""
        let data: String
    }

    /// Where entries go: the event log's publish(id:), restart(at:) and lastID.
    struct Sink: Sendable {
        let publish: @Sendable (Entry) -> Void
        let restart: @Sendable (_ lastID: Int, _ notifying: Bool) -> Void
        let lastID: @Sendable () -> Int
    }

    private struct State {
        var epoch: String?
        var running = false
        var stopped = false
        /// The last entry handed to the sink, checked after every reconnection.
        var last: Entry?
        /// Set by each (re)connection until the first round has checked the history.
        var verifying = false
        /// Resets sent because the history changed.
        var historyResets = 0
        /// The first entry after a jump in ids, held back from the log until a round's epoch is known
        /// to postdate it (see `deliverable`).
        var heldJump: Int?
    }

    private let connection: RedisConnection
    private let keys: SharedFeedKeys
    private let replayCount: Int
    private let sink: Sink
    private let state = Locked(State())
    /// XREAD waits this long for new entries before the loop checks the epoch again.
    private let block: Duration = .seconds(1)
    /// Entries per read: a 20,000 events/s burst is drained in a few round trips.
    private let readCount = 1000
    private let onError: @Sendable (String) -> Void
    private let onHistoryChange: @Sendable (String) -> Void

    init(
        connection: RedisConnection, keys: SharedFeedKeys, replayCount: Int, sink: Sink,
        onError: @escaping @Sendable (String) -> Void, onHistoryChange: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.connection = connection
        self.keys = keys
        self.replayCount = replayCount
        self.sink = sink
        self.onError = onError
        self.onHistoryChange = onHistoryChange
    }

    /// Call when the connection becomes connected: (re)starts the read loop, checking the history first.
    func connected() {
        state.withLock { $0.verifying = true }
        startLoop()
    }

    func stop() {
        state.withLock { $0.stopped = true }
    }

    /// True once the replay buffer has been filled from the stream (the first read done).
    var hasHistory: Bool { state.withLock { $0.epoch != nil } }

    /// True while deliveries flow from a history checked since the last (re)connection.
    var isCurrent: Bool { state.withLock { $0.epoch != nil && !$0.verifying } }

    /// Resets sent to live subscribers because the shared history changed.
    var historyResets: Int { state.withLock { $0.historyResets } }

    /// One round: the epoch (after the floor check) and new entries, pipelined; then the next
    /// round. Before the first fill only the epoch is asked for (an XREAD on a quiet stream would
    /// hold the batch's answer back for the whole block time); after a reconnection, the last
    /// entry read and the stream's first, instead of new entries.
    private func read() {
        let after = sink.lastID()
        let (known, verifying, last) = state.withLock { ($0.epoch, $0.verifying, $0.last) }
        var commands = [SharedFeedScript.observeCommand(keys: keys, floor: after, known: known)]
        let checked = verifying && known != nil ? last : nil
        if let checked {
            commands += [["XRANGE", keys.stream, "\(checked.id)-0", "\(checked.id)-0"], ["XRANGE", keys.stream, "-", "+", "COUNT", "1"]]
        } else if known != nil {
            commands.append(["XREAD", "COUNT", String(readCount), "BLOCK", String(block.milliseconds), "STREAMS", keys.stream, "\(after)-0"])
        }
        connection.send(batch: commands, timeout: block + connection.configuration.commandTimeout) { [self] results in
            let replies = results.compactMap { try? $0.get() }
            guard replies.count == results.count else {
                stopRunning(results.compactMap { if case .failure(let error) = $0 { error } else { nil } }.first)
                return
            }
            let epoch = replies[0].string ?? ""
            guard known == epoch else {
                return fill(epoch: epoch, firstTime: known == nil, reason: "a new epoch (Redis lost writes this feed had read, or restarted empty)")
            }
            if let checked {
                guard !Self.changed(checked, now: replies[1], first: replies[2]) else {
                    return rebase(floor: after, known: epoch, lost: checked.id)
                }
            }
            let entries = checked == nil && replies.count > 1 ? Self.entries(inXREAD: replies[1]) : []
            let held = state.withLock { state -> Int? in
                if verifying { state.verifying = false }
                return state.heldJump
            }
            let (ready, jump) = Self.deliverable(entries, after: after, confirmed: held)
            state.withLock { $0.heldJump = jump }
            deliver(ready)
            continueReading()
        }
    }

    /// The entries of one XREAD the log may take now, and the id of the first one held back. Ids
    /// are consecutive within one history; a jump is trimming, or the first entry of a history
    /// another replica named while this round's XREAD was blocked, after its epoch was read. Given
    /// to the log, such an entry would tell the clients `reset` at the jump and the next round's
    /// new epoch would tell them again (two resets for one change). So the entries from a jump on
    /// wait for the next round, whose epoch, read after the entry was in the stream, says which it
    /// is: a new epoch restarts the log once (`fill`); the same epoch lets the held entry through
    /// (`confirmed`), and the log's jump says `reset` for the trimmed ones.
    static func deliverable(_ entries: [Entry], after: Int, confirmed: Int?) -> (ready: ArraySlice<Entry>, held: Int?) {
        var previous = after
        for (index, entry) in entries.enumerated() {
            if entry.id > previous + 1, entry.id != confirmed { return (entries[..<index], entry.id) }
            previous = entry.id
        }
        return (entries[...], nil)
    }

    private func deliver<Entries: BidirectionalCollection<Entry>>(_ entries: Entries) {
        guard let newest = entries.last else { return }
        for entry in entries { sink.publish(entry) }
        state.withLock { $0.last = newest }
    }

    /// Whether the entry read as `last` is gone or different: a stream that still holds older
    /// entries but not this one, or holds another under its id. Gone with nothing older kept is
    /// trimming (the jump in ids tells the clients).
    static func changed(_ last: Entry, now reply: RESPValue, first: RESPValue) -> Bool {
        if let found = entries(inRange: reply).first { return found != last }
        guard let oldest = entries(inRange: first).first else { return false }
        return oldest.id < last.id
    }

    /// The entry this feed read last is not there as read, under a counter that did not go back:
    /// the counter moves past everything handed out and a new epoch tells every replica.
    private func rebase(floor: Int, known: String, lost id: Int) {
        connection.send(SharedFeedScript.observeCommand(keys: keys, floor: floor, force: true, known: known)) { [self] result in
            guard case .success(let reply) = result else {
                if case .failure(let error) = result { stopRunning(error) }
                return
            }
            fill(epoch: reply.string ?? "", firstTime: false, reason: "entry \(id), read before the reconnection, is not in Redis as it was read")
        }
    }

    /// A new dataset (or our first look at it). The first fill sets where the buffer starts, at the
    /// stream's tail; a later one restarts past every id handed out and the new history's base,
    /// telling live clients `reset` there.
    ///
    /// After a change only the entries past the restart are asked for, oldest first: the stream's
    /// tail is mostly the history before it, which the log would parse only to drop, while
    /// deliveries wait (a whole `replayCount` of it per replica right after a failover).
    private func fill(epoch: String, firstTime: Bool, reason: String) {
        let start = max(sink.lastID(), SharedFeedHistory.base(ofEpoch: epoch))
        let commands: [[String]] = firstTime
            ? [["GET", keys.sequence], ["XREVRANGE", keys.stream, "+", "-", "COUNT", String(replayCount)]]
            : [["XRANGE", keys.stream, "\(start + 1)-0", "+", "COUNT", String(replayCount)]]
        connection.send(batch: commands) { [self] results in
            guard case .success(let first) = results[0], case .success(let range) = results[results.count - 1] else {
                stopRunning(results.compactMap { if case .failure(let error) = $0 { error } else { nil } }.first)
                return
            }
            let entries: [Entry]
            if firstTime {
                entries = Self.entries(inRange: range).reversed()
                // The replay buffer starts right before the oldest retained entry; with none, at the counter.
                sink.restart(entries.first.map { $0.id - 1 } ?? first.int ?? 0, false)
            } else {
                entries = Self.entries(inRange: range)
                sink.restart(start, true)
                onHistoryChange("the shared /events history changed: \(reason); live clients were told reset, ids continue after \(start)")
            }
            state.withLock {
                $0.epoch = epoch
                $0.verifying = false
                $0.last = nil
                $0.heldJump = nil
                if !firstTime { $0.historyResets += 1 }
            }
            deliver(entries)
            continueReading()
        }
    }

    private func continueReading() {
        let stopped = state.withLock { state -> Bool in
            if state.stopped { state.running = false }
            return state.stopped
        }
        if !stopped { read() }
    }

    /// The loop ends on a connection failure; `connected()` starts it again. An error reply
    /// (e.g. the key holds another type) is reported and the loop starts again after a second,
    /// or at once when the connection comes back meanwhile. The loop is marked stopped before
    /// either can start it, so one of them always does (a retry that found the connection down
    /// and then stopped the loop could leave it stopped for good: "degraded" until a restart).
    private func stopRunning(_ error: RedisError?) {
        stopLoop()
        if case .server(let message)? = error {
            onError("shared feed read failed: \(message)")
            DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(1)) { [self] in
                if connection.state == .connected { startLoop() }
            }
            return
        }
        // The connection may already be back: connected() then found the loop still running.
        if connection.state == .connected { connected() }
    }

    /// Starts the read loop unless it runs (or the ingest stopped).
    private func startLoop() {
        let start = state.withLock { state -> Bool in
            guard !state.running, !state.stopped else { return false }
            state.running = true
            return true
        }
        if start { read() }
    }

    private func stopLoop() {
        state.withLock { $0.running = false }
    }

    /// XREAD's reply: [[stream, [[id, [field, value, …]], …]]], or null when the block timed out.
    static func entries(inXREAD reply: RESPValue) -> [Entry] {
        guard let streams = reply.array, let stream = streams.first?.array, stream.count == 2 else { return [] }
        return entries(inRange: stream[1])
    }

    /// XRANGE/XREVRANGE's reply: [[id, [field, value, …]], …].
    static func entries(inRange reply: RESPValue) -> [Entry] {
        (reply.array ?? []).compactMap { item in
            guard let pair = item.array, pair.count == 2,
                  let idText = pair[0].string, let id = Int(idText.prefix { $0 != "-" }),
                  let fields = pair[1].array else { return nil }
            var event = "", pipeline = "", data = ""
            var index = 0
            while index + 1 < fields.count {
                switch fields[index].string {
                case "e": event = fields[index + 1].string ?? ""
                case "p": pipeline = fields[index + 1].string ?? ""
                case "d": data = fields[index + 1].string ?? ""
                default: break
                }
                index += 2
            }
            return Entry(id: id, event: event, pipeline: pipeline, data: data)
        }
    }
}
