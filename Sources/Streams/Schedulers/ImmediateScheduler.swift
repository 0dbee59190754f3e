// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Dispatch

/// Runs work on the calling thread, at once. Delayed work is handed to a
/// background queue, since waiting on the caller's thread would block it.
public struct ImmediateScheduler: Scheduler {
    private let delayed = QueueScheduler(label: "streams.immediate-scheduler.delayed")

    /// A scheduler that runs work at once.
    public init() {}

    public var now: Duration { delayed.now }

    public func schedule(_ work: @escaping @Sendable () -> Void) {
        work()
    }

    @discardableResult
    public func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> Disposable {
        if delay <= .zero {
            work()
            return Disposable()
        }
        return delayed.schedule(after: delay, work)
    }
}
