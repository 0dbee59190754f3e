// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// Starts the subscription on `scheduler`: the source's subscribe work (and
    /// whatever it emits synchronously) runs there instead of on the caller's thread.
    ///
    ///     watch(on: S):   the caller returns at once; the source is watched from S
    ///
    /// Disposing happens at once on the disposing thread, not on `scheduler`: a
    /// subscription that has not started yet is cancelled, a started one is disposed
    /// right away, so disposal stays prompt even when the scheduler is busy.
    /// Events are not moved: use `observe(on:)` for that. ReactiveX: `subscribeOn`.
    public func watch(on scheduler: any Scheduler) -> DataStream<Element> {
        DataStream { downstream in
            // Filled when the job runs; disposing first makes the subscription be disposed on arrival.
            let started = SerialDisposable()
            let job = scheduler.schedule(after: .zero) {
                started.replace(with: watch(using: downstream))
            }
            return Disposable {
                job.dispose()
                started.dispose()
            }
        }
    }
}
