// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// Watches the stream again after an error, up to `maxRetries` times; the
    /// error after the last retry is delivered.
    ///
    ///     source (1st):  -1-#
    ///     source (2nd):     -1-2-|
    ///     retry(3):      -1--1-2-|
    ///
    /// `retry(3)` means up to 4 subscriptions in all. Only errors `retryIf`
    /// accepts are retried. A stream failing synchronously is re-watched in a
    /// loop, not by recursion, so `retry(50_000)` of it uses constant stack.
    public func retry(
        _ maxRetries: Int, retryIf: @escaping @Sendable (Error) -> Bool = { _ in true }
    ) -> DataStream<Element> {
        retry(maxRetries, backoff: RetryBackoff(initialDelay: .zero, maxDelay: .zero, jitter: 0, retryIf: retryIf), scheduler: nil)
    }

    /// Watches the stream again after an error, waiting on `scheduler` as
    /// `backoff` says (exponential, jittered, overridable per error), up to
    /// `maxRetries` times.
    ///
    ///     source (1st):                    -#
    ///     source (2nd, after 100 ms):           -#
    ///     source (3rd, after 200 ms more):              -1|
    ///     retry(3, backoff: …, scheduler): --------------1|
    public func retry(_ maxRetries: Int, backoff: RetryBackoff, scheduler: any Scheduler) -> DataStream<Element> {
        retry(maxRetries, backoff: backoff, scheduler: Optional(scheduler))
    }

    private func retry(_ maxRetries: Int, backoff: RetryBackoff, scheduler: (any Scheduler)?) -> DataStream<Element> {
        // The subscribe closure captures the configuration alone, so the configuration is its context (no
        // allocation more), and each subscription takes one reference to it instead of copying
        // the source, the backoff's four closures and the scheduler (one retain per subscription
        // instead of one per captured value).
        let configuration = RetryConfiguration(source: self, maxRetries: maxRetries, backoff: backoff, scheduler: scheduler)
        return DataStream.holding { [configuration] downstream, subscription in
            RetryStage(configuration: configuration, downstream: downstream, attempts: subscription).start()
        }
    }
}
