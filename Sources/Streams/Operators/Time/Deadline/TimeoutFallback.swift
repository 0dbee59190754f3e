// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// Switches to `fallback` when no value (or end) arrives within `dueTime` of the
    /// subscription or of the previous value, disposing the source (ReactiveX:
    /// `timeout(_:other:)`; Combine: `timeout` then `catch`; ReactiveCocoa:
    /// `timeout(after:raising:on:)` then `flatMapError`).
    ///
    ///     source:                     --a--b-------c|
    ///     fallback:                             -x-y|
    ///     timeout(4 ticks, fallback): --a--b-----x-y|
    ///
    /// Only the timeout switches: an error from the source passes on as it is.
    public func timeout<Fallback: StreamType>(
        _ dueTime: Duration, scheduler: any Scheduler, fallback: Fallback
    ) -> DataStream<Element> where Fallback.Element == Element {
        timeout(dueTime, scheduler: scheduler, failure: { SwitchToFallback() })
            .recover { error -> DataStream<Element> in
                guard error is SwitchToFallback else { return .just(error: error) }
                return fallback.asDataStream()
            }
    }
}

/// The timeout of `timeout(_:scheduler:fallback:)`, never seen outside it.
private struct SwitchToFallback: Error {}
