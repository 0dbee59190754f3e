// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Synchronization
import Streams
import StreamsTesting

/// A virtual-time scheduler that counts the timers it is asked for, to show how
/// many an operator arms.
final class CountingScheduler: Scheduler {
    let base: TestScheduler
    private let count = Mutex(0)

    init(base: TestScheduler) {
        self.base = base
    }

    var timersArmed: Int { count.withLock { $0 } }
    var now: Duration { base.now }

    func schedule(_ work: @escaping @Sendable () -> Void) {
        base.schedule(work)
    }

    @discardableResult
    func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> Disposable {
        count.withLock { $0 += 1 }
        return base.schedule(after: delay, work)
    }
}
