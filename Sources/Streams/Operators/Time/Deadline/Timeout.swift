// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// Fails with `StreamTimeoutError` when no value (or end) arrives within
    /// `dueTime` of the subscription or of the previous value, and disposes the
    /// source. Each value restarts the wait.
    ///
    ///     source:              --a--b-------c|
    ///     timeout(4 ticks):    --a--b---#             # = StreamTimeoutError
    ///
    /// For a one-shot request stream this bounds the whole request; for a stream of
    /// many values it bounds each gap (ReactiveX semantics). A value only moves the
    /// deadline; the one pending timer, when it fires for a moved deadline, waits
    /// again for the rest, so a busy stream does not arm a timer per value.
    public func timeout(_ dueTime: Duration, scheduler: any Scheduler) -> DataStream<Element> {
        timeout(dueTime, scheduler: scheduler, failure: nil)
    }

    /// `timeout` failing with what `failure` makes (nil: `StreamTimeoutError`).
    func timeout(_ dueTime: Duration, scheduler: any Scheduler, failure: (@Sendable () -> Error)?) -> DataStream<Element> {
        deadline(dueTime, scheduler: scheduler, expiry: .silence(failure: failure))
    }
}
