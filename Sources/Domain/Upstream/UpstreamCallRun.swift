// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Streams
import Synchronization

/// One subscription to a `GitHubClient` call with its stages fused: the attempts, their metering
/// and status check, the retries with their back-off, the redirect and the failure naming the
/// stage, kept by this one object (and an `AttemptMeter` per attempt) where the operators'
/// composition, `UpstreamCall.response`, builds a stream, a stage and a watcher per operator.
/// That composition stays, as the slow twin (`GitHubClient.CallFusing.operators`) and for a call
/// with a CLIENT span, whose attempts run in the span's context; `CallFusingTests` holds the two
/// to the same events at the same virtual times.
///
///     attempts:   --503|  --503|  --302(b)|
///     to b:                               --200|
///     run:        ----------------------------200|
///
/// What each operator does here is what `retry(_:backoff:scheduler:)`'s `RetryStage` does (the
/// attempts started under the subscription, one wait linked to it at a time, a trampoline for
/// retries without a wait), then `map` throwing a redirect's `Hop`, then `recover`.
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

    init(call: UpstreamCall, downstream: Watcher<UpstreamResponse>, subscription: Disposable) {
        self.call = call
        self.downstream = downstream
        self.subscription = subscription
    }

    /// Starts the next attempt now, or after the one in progress on this thread returns.
    func start() {
        resubscriber.request { attempt() }
    }

    private func attempt() {
        guard !downstream.isStopped else { return }
        PendingSubscriptions.watch(under: subscription) {
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
    }

    /// An answer that passed the status check: a redirect goes on as a `Hop` (the attempt fails
    /// with it, which disposes it), anything else downstream.
    func answered(_ response: UpstreamResponse) throws(UpstreamCall.Hop) {
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
            downstream.error(call.failure(error))
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
