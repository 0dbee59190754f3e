// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import NetCore
import Streams

/// One timer for every open event stream: each beat is a comment message that
/// keeps proxies and clients from timing an idle stream out. Sharing the clock
/// keeps the cost of 10,000 idle SSE clients at one timer, not 10,000.
public final class HeartbeatClock: Sendable {
    /// The encoded comment, the same bytes for every stream.
    public static let beat = ServerSentEvent.comment("heartbeat").encoded

    /// The time between beats.
    public let period: Duration
    /// The open streams' watchers by key. Not a `Streamer`: its watchers are an array searched
    /// on every unsubscribe, and 19,800 streams closing at once (a load balancer restarting)
    /// cost the loop seconds of searching (21 % of the server's samples in `perf` as they closed).
    private let watchers = Locked(Registry())
    private let ticking = Locked<Disposable?>(nil)
    private let scheduler: any Scheduler

    /// A clock beating every `period` on `scheduler` once started (``start()``).
    public init(period: Duration, scheduler: any Scheduler = QueueScheduler(label: "sse.heartbeat")) {
        self.period = period
        self.scheduler = scheduler
    }

    /// Beats every `period`, the first one `period` after starting. Idempotent.
    public func start() {
        ticking.withLock { ticking in
            guard ticking == nil else { return }
            ticking = DataStream.interval(period, scheduler: scheduler).skip(1).watch(data: { [watchers] _ in
                for watcher in watchers.withLock({ Array($0.byKey.values) }) { watcher.data(Self.beat) }
            })
        }
    }

    /// Stops beating; the streams stay open. ``start()`` starts again.
    public func stop() {
        ticking.withLock { ticking in
            ticking?.dispose()
            ticking = nil
        }
    }

    /// The beats from now on; never ends.
    public var stream: DataStream<[UInt8]> {
        DataStream { [watchers] watcher in
            let key = watchers.withLock { registry in
                defer { registry.nextKey += 1 }
                registry.byKey[registry.nextKey] = watcher
                return registry.nextKey
            }
            return Disposable { watchers.withLock { _ = $0.byKey.removeValue(forKey: key) } }
        }
    }

    /// How many streams receive the beats.
    public var watcherCount: Int { watchers.withLock { $0.byKey.count } }

    private struct Registry {
        var byKey: [Int: Watcher<[UInt8]>] = [:]
        var nextKey = 0
    }

    deinit { ticking.withLock { $0?.dispose() } }
}
