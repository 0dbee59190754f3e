// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Synchronization

/// The peers' `/events` feed: one process-wide clock publishing tick K every `every` to all current
/// subscribers, so every client sees the same event at the same time, as a broadcast should.
public final class TickBroadcast: Sendable {
    private let subscribers = Mutex<[Int: AsyncStream<Int>.Continuation]>([:])
    private let nextID = Atomic<Int>(0)
    public let every: Duration

    public init(every: Duration = .seconds(1)) {
        self.every = every
    }

    public var subscriberCount: Int {
        subscribers.withLock { $0.count }
    }

    /// A feed of tick numbers; a slow reader keeps only the newest few instead of growing without bound.
    public func subscribe() -> AsyncStream<Int> {
        let id = nextID.wrappingAdd(1, ordering: .relaxed).newValue
        let (stream, continuation) = AsyncStream<Int>.makeStream(bufferingPolicy: .bufferingNewest(8))
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.removeValue(forKey: id) }
        }
        subscribers.withLock { $0[id] = continuation }
        return stream
    }

    /// Publishes forever (until the task is cancelled) on an absolute schedule from the call.
    public func run() async {
        let schedule = TickSchedule(every: every, count: .max)
        var tick = 0
        while !Task.isCancelled {
            do { try await schedule.waitFor(tick: tick) } catch { return }
            // Yield outside the lock: a continuation may call back into onTermination.
            let current = subscribers.withLock { Array($0.values) }
            for continuation in current { continuation.yield(tick) }
            tick += 1
        }
    }
}
