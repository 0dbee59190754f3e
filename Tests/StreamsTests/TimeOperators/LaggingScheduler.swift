// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Streams
import StreamsTesting

/// A virtual-time scheduler whose timers all fire `lag` late, like a busy real
/// one: shows whether an operator measures time from its origin or lets lateness add up.
struct LaggingScheduler: Scheduler {
    let base: TestScheduler
    let lag: Duration

    var now: Duration { base.now }

    func schedule(_ work: @escaping @Sendable () -> Void) {
        base.schedule(after: lag, work)
    }

    @discardableResult
    func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> Disposable {
        base.schedule(after: delay + lag, work)
    }
}
