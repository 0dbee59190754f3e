// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Synchronization

/// One `retry` subscription: the attempt in progress, the wait before the next one and
/// the retries spent. The attempts' watchers and the wait's timer capture only this
/// object, and the operator's own subscription holds the attempt and the wait (attempts fail
/// one after another, so at most one of them is pending): a subscription costs this object and
/// that subscription, and each attempt a watcher,
/// where a serial slot with its lock (3 allocations), a trampoline object, a wrapping disposable
/// and a relay's context per attempt took 6 more.
final class RetryStage<Source: StreamType>: Sendable {
    let configuration: RetryConfiguration<Source>
    let downstream: Watcher<Source.Element>
    /// The operator's subscription (`DataStream.holding`): holds the attempt in progress, even
    /// while it is still being set up, and the wait before the next one.
    let attempts: Disposable
    /// Runs the attempts one after another: a synchronous failure requests the next attempt
    /// while its own is being set up, which then runs in the requesting loop.
    let resubscriber = Trampoline()
    /// Retries decided so far. Attempts fail one after another, never two at once.
    let retries = Atomic<Int>(0)
    /// The decided retries' waits added up, in nanoseconds, for the back-off's `maxTotalWait`.
    let waited = Atomic<UInt64>(0)

    init(configuration: RetryConfiguration<Source>, downstream: Watcher<Source.Element>, attempts: Disposable) {
        self.configuration = configuration
        self.downstream = downstream
        self.attempts = attempts
    }

    /// Starts the next attempt now, or after the one being set up on some thread returns
    /// (a synchronous failure then loops instead of recursing).
    func start() {
        resubscriber.request { watchAttempt() }
    }

    private func watchAttempt() {
        guard !downstream.isStopped else { return }
        PendingSubscriptions.watch(under: attempts) {
            configuration.source.watch(using: Watcher(
                onData: { [self] value in downstream.data(value) },
                onTerminal: { [self] event in finish(event) }
            ))
        }
    }

    private func finish(_ event: Event<Source.Element>) {
        switch event {
        case .data: break
        case .end: downstream.end()
        case .error(let error): failed(error)
        }
    }

    private func failed(_ error: Error) {
        let retry = retries.add(1, ordering: .relaxed).newValue
        let before = waited.load(ordering: .relaxed)
        guard retry <= configuration.maxRetries,
              let delay = configuration.backoff.delay(beforeRetry: retry, after: error, waited: .nanoseconds(before))
        else {
            downstream.error(error)
            return
        }
        // Saturating: each wait is at most a century, but retries may be many.
        let (sum, overflow) = before.addingReportingOverflow(delay.nanoseconds)
        waited.store(overflow ? .max : sum, ordering: .relaxed)
        if let scheduler = configuration.scheduler, delay > .zero {
            // The one pending wait: the previous one fired before the attempt that just failed.
            attempts.link(scheduler.schedule(after: delay) { [self] in start() })
        } else {
            start()
        }
    }
}
