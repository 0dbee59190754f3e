import StreamServiceConcurrency
import Dispatch
import Redis

/// Reads the shared stream into this replica's broadcaster: one blocking XREAD
/// loop on a connection of its own, so every replica shows the same items with
/// the same ids in the same order (its own events arrive this way too).
///
/// On the first connection it fills the replay buffer from the stream's tail
/// (XREVRANGE). Each read also fetches the dataset's epoch token: a new token
/// means Redis lost its data (restarted empty, flushed), so the broadcaster
/// restarts and live clients get `reset`. A reconnect with the same epoch just
/// continues after the last id; if the stream was trimmed past it meanwhile, the
/// jump in ids makes the broadcaster send `reset`.
final class SharedFeedIngest: Sendable {
    /// One stream entry: its SSE id, event name and data.
    struct Entry: Sendable, Equatable {
        let id: Int
        let event: String
        var pipeline = ""
        let data: String
    }

    /// Where entries go: the broadcaster's publish(id:), restart(at:) and lastID.
    struct Sink: Sendable {
        let publish: @Sendable (Entry) -> Void
        let restart: @Sendable (_ lastID: Int, _ notifying: Bool) -> Void
        let lastID: @Sendable () -> Int
    }

    private struct State {
        var epoch: String?
        var running = false
        var stopped = false
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

    init(connection: RedisConnection, keys: SharedFeedKeys, replayCount: Int, sink: Sink, onError: @escaping @Sendable (String) -> Void) {
        self.connection = connection
        self.keys = keys
        self.replayCount = replayCount
        self.sink = sink
        self.onError = onError
    }

    /// Call when the connection becomes connected: (re)starts the read loop.
    func connected() {
        let start = state.withLock { state -> Bool in
            guard !state.running, !state.stopped else { return false }
            state.running = true
            return true
        }
        if start { read() }
    }

    func stop() {
        state.withLock { $0.stopped = true }
    }

    /// True once the replay buffer has been filled from the stream (the first read done).
    var hasHistory: Bool { state.withLock { $0.epoch != nil } }

    /// One round: the epoch (created if missing) and new entries, pipelined; then the next round.
    /// Before the first fill only the epoch is asked for: an XREAD on a quiet stream would hold
    /// the batch's answer back for the whole block time.
    private func read() {
        let after = sink.lastID()
        var commands: [[String]] = [["SET", keys.epoch, Self.newEpoch(), "NX"], ["GET", keys.epoch]]
        if state.withLock({ $0.epoch }) != nil {
            commands.append(["XREAD", "COUNT", String(readCount), "BLOCK", String(block.milliseconds), "STREAMS", keys.stream, "\(after)-0"])
        }
        connection.send(batch: commands, timeout: block + connection.configuration.commandTimeout) { [self] results in
            let entries = results.count > 2 ? results[2] : .success(.null)
            guard case .success(let epochReply) = results[1], case .success(let entries) = entries else {
                stopRunning(results.compactMap { if case .failure(let error) = $0 { error } else { nil } }.first)
                return
            }
            let epoch = epochReply.string ?? ""
            let known = state.withLock { $0.epoch }
            if known != epoch {
                fill(epoch: epoch, firstTime: known == nil)
                return
            }
            for entry in Self.entries(inXREAD: entries) { sink.publish(entry) }
            continueReading()
        }
    }

    /// A new dataset (or our first look at it): restart the broadcaster at the stream's tail.
    private func fill(epoch: String, firstTime: Bool) {
        let commands: [[String]] = [["GET", keys.sequence], ["XREVRANGE", keys.stream, "+", "-", "COUNT", String(replayCount)]]
        connection.send(batch: commands) { [self] results in
            guard case .success(let sequence) = results[0], case .success(let tail) = results[1] else {
                stopRunning(results.compactMap { if case .failure(let error) = $0 { error } else { nil } }.first)
                return
            }
            let entries = Self.entries(inRange: tail).reversed()
            let head = sequence.int ?? 0
            // The replay buffer starts right before the oldest retained entry; with none, at the counter.
            let start = entries.first.map { $0.id - 1 } ?? head
            // The first fill only sets where the buffer starts; a later one replaces a lost history.
            sink.restart(start, !firstTime)
            for entry in entries { sink.publish(entry) }
            state.withLock { $0.epoch = epoch }
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
    /// (e.g. the key holds another type) is reported and retried after a second.
    private func stopRunning(_ error: RedisError?) {
        if case .server(let message)? = error {
            onError("shared feed read failed: \(message)")
            DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(1)) { [self] in
                guard connection.state == .connected else { return stopLoop() }
                continueReading()
            }
            return
        }
        stopLoop()
        // The connection may already be back: connected() then found the loop still running.
        if connection.state == .connected { connected() }
    }

    private func stopLoop() {
        state.withLock { $0.running = false }
    }

    private static func newEpoch() -> String {
        String(UInt64.random(in: 1...UInt64.max), radix: 36)
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
