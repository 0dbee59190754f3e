// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Streams
import Synchronization
import Tracing

/// One subscription to a `GitHubClient` call with its stages fused: the attempts, their metering
/// and status check, the retries with their back-off, the redirect and the failure naming the
/// stage, kept by this one object (and an `AttemptMeter` per attempt) where the operators'
/// composition, `UpstreamCall.response`, builds a stream, a stage and a watcher per operator.
/// That composition stays as the slow twin (`GitHubClient.CallFusing.operators`); `CallFusingTests`
/// holds the two to the same events at the same virtual times and the same spans.
///
///     attempts:   --503|  --503|  --302(b)|
///     to b:                               --200|
///     run:        ----------------------------200|
///
/// What each operator does here is what `retry(_:backoff:scheduler:)`'s `RetryStage` does (the
/// attempts started under the subscription, one wait linked to it at a time, a trampoline for
/// retries without a wait), then `map` throwing a redirect's `Hop`, then `recover`.
///
/// A call whose CLIENT span records runs as the composition's `retried.inContext(span.context)`
/// when something below the transport may read the context (`UpstreamTransport.readsServiceContext`):
/// each attempt is subscribed in the span's context, as `inContext` subscribes the retry stage
/// and that stage its attempts (the context kept as `ContextPropagation.carried(_:)` says, so a
/// retry started from a timer or another thread binds it again, and a library below the
/// transport reads the span as `ServiceContext.current`); the span ends with the status of an
/// answer, with the classified final failure, or as cancelled when a disposed run lets it go
/// (`UpstreamSpan`'s deinit); the redirect's hop is subscribed in the caller's context, the
/// subscription's. A transport that reads none (`HTTPUpstreamTransport`) gets its span in the
/// request alone, and its attempts no binding. The composition for traced calls cost `/users`
/// at 100 % sampling 306 k instructions a request more (3,366,752 → 3,061,028;
/// Benchmarks/README.md, Ledger).
final class UpstreamCallRun: Sendable {
    let call: UpstreamCall
    let downstream: Watcher<UpstreamResponse>
    /// The subscription `DataStream.holding` began: the attempts are its children, the wait its link.
    let subscription: Disposable
    private let resubscriber = Trampoline()
    /// Failed attempts so far (`RetryStage.retries`).
    private let failures = Atomic<Int>(0)
    /// Nanoseconds waited before retries so far, saturating.
    private let waited = Atomic<UInt64>(0)
    /// The call's span when it records (`UpstreamCall.recordingSpan`), read once.
    private let span: UpstreamSpan?
    /// The context the attempts are subscribed in when `span` records: what the composition's
    /// retry stage, subscribed in the span's context, keeps for them (nil: propagation off, or
    /// inside `withoutCarrying`; then an attempt runs in the context current where it starts).
    /// Nil too when nothing below the transport reads the task-local
    /// (`UpstreamTransport.readsServiceContext`): the attempts are then subscribed with no
    /// binding of their own, as the span they would see rides in their requests.
    private let attemptContext: ServiceContext?
    /// The attempts are subscribed in the span's context (`span` records and the transport
    /// reads `ServiceContext.current`). Otherwise no binding per attempt: no task-local push and
    /// pop, and no span context kept and bound again by the attempt's own subscriptions and
    /// timers (`/users` at 100 %: 2,310,419 → 2,256,291 instructions a request, ≈ 1.5 k an exchange).
    private let bindsAttempts: Bool

    init(call: UpstreamCall, downstream: Watcher<UpstreamResponse>, subscription: Disposable) {
        self.call = call
        self.downstream = downstream
        self.subscription = subscription
        span = call.recordingSpan
        bindsAttempts = span != nil && call.client.transportReadsContext
        attemptContext = bindsAttempts ? span.flatMap { ContextPropagation.carried($0.context, settingUp: subscription) } : nil
    }

    /// Runs the call: its first attempt now.
    func run() {
        // The composition's first attempt starts with the span's context bound (`inContext`'s
        // watch), and binds what its retry stage kept (`attemptContext`) inside that: the inner
        // binding alone when there is one.
        guard bindsAttempts, let span, attemptContext == nil else { return start() }
        ServiceContext.withValue(span.context) { start() }
    }

    /// Starts the next attempt now, or after the one in progress on this thread returns.
    private func start() {
        resubscriber.request { attempt() }
    }

    private func attempt() {
        guard !downstream.isStopped else { return }
        guard span != nil else { return PendingSubscriptions.watch(under: subscription) { watchAttempt() } }
        // A recording span: its context (`attemptContext`), or none when the transport reads none.
        PendingSubscriptions.watch(under: subscription, carrying: attemptContext) { watchAttempt() }
    }

    private func watchAttempt() -> Disposable {
        // A back-off cut at the deadline ends here (see `UpstreamCall.attempt`).
        let left = call.timeLeft
        guard left > .zero else {
            failed(call.deadlineExceeded)
            return Disposable.alreadyDisposed
        }
        let meter = AttemptMeter(metrics: call.client.metrics, run: self)
        return call.send(left: left).watch(using: Watcher(
            handingOnTo: meter, onData: { [meter] response in try meter.received(response) }, onTerminal: { [meter] event in meter.ended(event) }))
    }

    /// An answer that passed the status check: the span ends with its status; a redirect goes on
    /// as a `Hop` (the attempt fails with it, which disposes it), anything else downstream.
    func answered(_ response: UpstreamResponse) throws(UpstreamCall.Hop) {
        span?.end(status: response.status)
        downstream.data(try UpstreamCall.Hop.check(response))
    }

    /// The attempt ended.
    func ended(_ event: Event<UpstreamResponse>) {
        switch event {
        case .data: break
        case .end: downstream.end()
        case .error(let error as UpstreamCall.Hop):
            let next = call.following(error.location)
            PendingSubscriptions.watch(under: subscription) { next.watch(using: downstream) }
        case .error(let error): failed(error)
        }
    }

    /// An attempt failed: retried after the back-off's wait, or the call fails.
    private func failed(_ error: any Error) {
        let retry = failures.add(1, ordering: .relaxed).newValue
        let before = waited.load(ordering: .relaxed)
        let client = call.client
        guard retry <= client.configuration.retry.maxRetries,
              let delay = client.backoff.delay(beforeRetry: retry, after: error, waited: .nanoseconds(before), limit: { call.timeLeft })
        else {
            downstream.error(call.finalFailure(error))
            return
        }
        call.retrying(retry, after: delay, error: error)
        let (sum, overflow) = before.addingReportingOverflow(delay.nanoseconds)
        waited.store(overflow ? .max : sum, ordering: .relaxed)
        guard delay > .zero else { return start() }
        // The one pending wait: the previous one fired before the attempt that just failed.
        subscription.link(client.scheduler.schedule(after: delay) { [self] in start() })
    }
}

/// A fused attempt's stage: its metering, and its events on to its run.
extension AttemptMeter: StoppableWatcher {
    /// Checked and metered as `UpstreamCall.attempt`'s `call` does, then on to the run.
    func received(_ response: UpstreamResponse) throws {
        try finish(checking: response)
        try run?.answered(response)
    }

    /// As the `call` stage's `error` and `disposed`, then on to the run.
    func ended(_ event: Event<UpstreamResponse>) {
        if case .error(let error) = event, !(error is UpstreamCall.Hop) {
            finish(GitHubClient.outcome(for: UpstreamError(classifying: error)))
        }
        finish(.cancelled)
        run?.ended(event)
    }

    /// The attempt was disposed before it ended.
    func stop() {
        finish(.cancelled)
    }
}
