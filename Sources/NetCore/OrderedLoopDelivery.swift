// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Synchronization

/// Delivers one stream's events onto an event loop in the order they were emitted: each runs
/// on the loop's thread, inline when it is already there and nothing waits before it.
///
/// A stream may emit its events on different threads (serialized, one at a time):
/// an async source's values from a worker thread, then its end from the loop.
/// Running loop-thread events inline while earlier ones still wait in the loop's
/// queue would overtake them, so once an event has been queued every later one is
/// queued too, until the queue has caught up.
public final class OrderedLoopDelivery: Sendable {
    private let loop: EventLoop
    private let queued = Atomic<Int>(0)

    public init(loop: EventLoop) {
        self.loop = loop
    }

    /// True when an event arriving now may run inline: on the loop, with nothing queued before it.
    /// Callers check it first and call `run` only when it is false, so the common inline case
    /// allocates no closure.
    public var runsInline: Bool {
        queued.load(ordering: .acquiring) == 0 && loop.inLoop
    }

    /// Runs `work` inline when on the loop with nothing queued before it, else queues it.
    public func run(_ work: @escaping @Sendable () -> Void) {
        if runsInline {
            work()
            return
        }
        queued.add(1, ordering: .acquiringAndReleasing)
        loop.execute { [self] in
            work()
            queued.subtract(1, ordering: .acquiringAndReleasing)
        }
    }
}
