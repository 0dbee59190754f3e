// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension DataStream where Element == Int {
    /// Emits 0, 1, 2, … one per `period`, never ending: value K is due K × period
    /// after the subscription, the first one at once.
    ///
    ///     interval(10 ms):  0---------1---------2---------3--- …
    ///                       0 ms      10 ms     20 ms     30 ms
    ///
    /// ReactiveX `interval` waits one period before its first value; this one starts
    /// at once (like RxJS `timer(0, period)`), so that `interval(p).take(n)` gives n
    /// values spanning (n - 1) × p. Use `timer(period, period:scheduler:)` for the
    /// ReactiveX timing.
    ///
    /// Drift-free: every value is scheduled relative to the subscription, not to the
    /// previous value. If the scheduler runs late, the overdue values are emitted
    /// together as soon as it catches up, none is skipped.
    /// A zero or negative period fails with `InvalidDurationError`.
    public static func interval(_ period: Duration, scheduler: any Scheduler) -> DataStream<Int> {
        periodic(firstAfter: .zero, period: period, scheduler: scheduler, operatorName: "interval")
    }

    /// The ticks of a `PeriodicTicker`, or an `InvalidDurationError` for a period that is not positive.
    static func periodic(
        firstAfter delay: Duration,
        period: Duration,
        scheduler: any Scheduler,
        operatorName: String
    ) -> DataStream<Int> {
        DataStream { watcher in
            guard period > .zero else {
                watcher.error(InvalidDurationError(operatorName: operatorName, duration: period))
                return Disposable()
            }
            let ticker = PeriodicTicker(feeding: watcher, firstAfter: delay, period: period, scheduler: scheduler)
            ticker.start()
            return Disposable { ticker.cancel() }
        }
    }
}
