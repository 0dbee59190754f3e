// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension DataStream where Element == Int {
    /// Emits 0 once `dueTime` has passed, then ends.
    ///
    ///     timer(30 ms):  ------------0|
    ///                    0 ms        30 ms
    ///
    /// Disposing before the due time cancels the scheduled work.
    public static func timer(_ dueTime: Duration, scheduler: any Scheduler) -> DataStream<Int> {
        DataStream { watcher in
            scheduler.schedule(after: max(dueTime, .zero)) {
                watcher.data(0)
                watcher.end()
            }
        }
    }

    /// Emits 0 once `dueTime` has passed, then 1, 2, … every `period`, never ending:
    /// value K is due `dueTime + K × period` after the subscription, drift-free as in
    /// `interval`. A zero or negative period fails with `InvalidDurationError`.
    ///
    ///     timer(30 ms, period: 10 ms):  ------------0---1---2--- …
    ///                                   0 ms        30  40  50 ms
    public static func timer(_ dueTime: Duration, period: Duration, scheduler: any Scheduler) -> DataStream<Int> {
        periodic(firstAfter: dueTime, period: period, scheduler: scheduler, operatorName: "timer")
    }
}
