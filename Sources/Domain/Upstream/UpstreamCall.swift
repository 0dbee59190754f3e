// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTP
import StreamServiceConcurrency
import Streams
import Synchronization

/// One GET of `GitHubClient` for one subscriber, written in Streams' operators: each attempt is
/// `send` → `call` (status check and metrics), its timeout kept by the transport (or by a
/// `timeout` after `send`: `TimeoutKeeping.stage`), `retry` repeats it as the
/// policy says, and `recover` names the stage that failed or, for a redirect (`map` makes it a
/// `Hop`), follows it.
/// The pieces are the libraries' public ones an adopter has: the status check reads
/// `Retry-After` with `HTTP`'s `RetryAfter` (`UpstreamError(answer:)`), and the back-off waits
/// it as Streams' `RetryBackoff.honouringRetryAfter` does (`RetryPolicy.backoff`); GitHub's
/// rate-limit answers (a 403 with `x-ratelimit-*`) are this service's own addition.
///
/// The whole call's deadline is kept without a stage or a timer of its own: the call notes when
/// it is due at its start, each attempt's `timeout` is the shorter of the attempt timeout and the
/// time left (failing with `deadlineExceeded` when the time left is the shorter), a back-off
/// never waits past it (`RetryBackoff.waitLimit`), and an attempt due at or after it fails at
/// once (a transport that keeps timeouts is given the time left, failing with `deadlineExceeded`).
/// Its slow twin, a second `timeout` over the retries, is `DeadlineKeeping.stage`.
///
///     attempts:   --503|  --503|  --302(b)|
///     retried:                    --302(b)|
///     to b:                               --200|
///     response:   ----------------------------200|
///
/// The call's context (client, URL, stage, trace, retries spent) lives in this one object, and
/// the operators' closures capture it alone, so they need no context of their own: closures
/// each capturing a few of those values, a lock for the retry count and a once-flag per attempt
/// each needed an allocation (the figure: Benchmarks/README.md).
final class UpstreamCall: Sendable {
    let client: GitHubClient
    private let url: URL
    private let stage: UpstreamStage
    private let trace: PipelineTrace?
    private let hopsLeft: Int
    /// The retries spent so far, for the final failure.
    private let retries = Atomic<Int>(0)
    /// When the whole call is due, on the scheduler's clock: a call is made per subscription.
    private let due: Duration
    /// The exchange's CLIENT span, begun with the call (made when its stream is subscribed, in
    /// the subscriber's context); nil when the client does not trace.
    private let span: UpstreamSpan?
    /// What the attempts send for a trace that is not recorded (`PipelineTrace.unrecordedFields`),
    /// in place of a span of their own; nil with a span or when the client does not trace.
    private let traceFields: HTTPHeaders?

    /// `subscription`: the one being set up that makes the call, when there is one (its span's parent is read through it).
    init(client: GitHubClient, url: URL, stage: UpstreamStage, trace: PipelineTrace?, hopsLeft: Int, settingUp subscription: Disposable? = nil) {
        due = client.scheduler.now + client.configuration.deadline
        self.client = client
        self.url = url
        self.stage = stage
        self.trace = trace
        self.hopsLeft = hopsLeft
        // The tracer read out of the client once: each read of the optional existential was a
        // copy of it, four a call (≈ 560 instructions).
        guard let tracer = client.tracer else {
            span = nil
            traceFields = nil
            return
        }
        if let fields = trace?.unrecordedFields {
            span = nil
            traceFields = fields
        } else {
            span = UpstreamSpan(client: client, tracer: tracer, url: url, stage: stage, settingUp: subscription)
            traceFields = nil
        }
    }

    /// The answer, redirects followed; a final failure is an `UpstreamFailure` naming the stage
    /// and the retries spent.
    var response: DataStream<UpstreamResponse> {
        var backoff = client.backoff
        backoff.onRetry = { [self] retry in retrying(retry.number, after: retry.delay, error: retry.error) }
        let retried: DataStream<UpstreamResponse>
        switch client.deadlineKeeping {
        case .bounds:
            backoff.waitLimit = { [self] in timeLeft }
            retried = attempt.retry(client.configuration.retry.maxRetries, backoff: backoff, scheduler: client.scheduler)
        case .stage:
            retried = attempt.retry(client.configuration.retry.maxRetries, backoff: backoff, scheduler: client.scheduler)
                .timeout(client.configuration.deadline, scheduler: client.scheduler)
        }
        // A redirect to follow goes on as a `Hop`, which the `recover` naming this call's failures
        // turns into the next hop's call: a `map` and one `recover` per call, where a `redirect`
        // after the `recover` cost a serialising sink, its watchers and a stream for every answer
        // (the figure: Benchmarks/README.md).
        let checked: DataStream<UpstreamResponse>
        if let span = recordingSpan {
            // The attempts, their timers and retries are subscribed in the span's context; the
            // redirect's hop is not (a sibling exchange, in the caller's context, where `recover`
            // below is subscribed). The span ends in the `map` with the answer, in the `recover`
            // with a failure; an exchange whose subscriber went away first ends it as cancelled
            // when it lets it go (`UpstreamSpan`'s deinit). A `call` stage of its own for the
            // three cost about 2 k instructions an exchange (Benchmarks/README.md).
            checked = retried
                .inContext(span.context)
                .map { response throws(Hop) in
                    span.end(status: response.status)
                    return try Hop.check(response)
                }
        } else {
            checked = retried.map { response throws(Hop) in try Hop.check(response) }
        }
        return checked.recover { [self] error -> DataStream<UpstreamResponse> in
            if let hop = error as? Hop { return following(hop.location) }
            return .just(error: finalFailure(error))
        }
    }

    /// A redirect with somewhere to go, on its way from an answer to `recover` (see `response`).
    struct Hop: Error {
        let location: String

        /// `response`, unless it is a redirect with a `Location`: then that, thrown.
        static func check(_ response: UpstreamResponse) throws(Hop) -> UpstreamResponse {
            guard GitHubClient.isRedirect(response.status), let location = response.header("location") else { return response }
            throw Hop(location: location)
        }
    }

    /// The call's CLIENT span when it records: the attempts, their timers and retries run in its
    /// context, and it ends with the answer or the final failure. A span that records nothing has
    /// nothing to end, and no child that needs its context (its attempts still send its
    /// `traceparent`: `request.span`).
    var recordingSpan: UpstreamSpan? {
        guard let span, span.isRecording else { return nil }
        return span
    }

    /// The time left before the call's deadline (zero or less once it passed).
    var timeLeft: Duration { due - client.scheduler.now }

    var deadlineExceeded: UpstreamError { .deadlineExceeded(after: client.configuration.deadline) }

    /// One attempt: timed out, checked for a 2xx (or a redirect to follow), and measured.
    private var attempt: DataStream<UpstreamResponse> {
        DataStream.deferred { [self] in
            // The stage twin bounds the call outside the attempts: nothing to bound here.
            let left = client.deadlineKeeping == .bounds ? timeLeft : .seconds(Int64.max)
            // A back-off cut at the deadline ends here, where the stage twin's timeout fired.
            guard left > .zero else { return DataStream<UpstreamResponse>.just(error: deadlineExceeded) }
            let meter = AttemptMeter(metrics: client.metrics)
            let bounded = send(left: left)
            // The status is checked in the metering stage, not in a `map` of its own before it: a
            // stage fewer per attempt (the figure: Benchmarks/README.md). A failed check finishes
            // the meter with its outcome and fails the attempt (`call`'s `disposed` then finds the
            // meter finished).
            return bounded.call(
                data: { response in try meter.finish(checking: response) },
                error: { meter.finish(GitHubClient.outcome(for: UpstreamError(classifying: $0))) },
                disposed: { meter.finish(.cancelled) })
        }
    }

    /// One attempt's request sent, with `left` the time left before the deadline.
    func send(left: Duration) -> DataStream<UpstreamResponse> {
        let timeout = client.configuration.timeout
        var request = client.request(url)
        request.usage = trace?.usage
        request.span = span
        request.traceFields = traceFields
        // The deadline cuts this attempt when it comes first (or together: then saying so is true).
        guard client.transportKeepsTimeouts else {
            let sent = client.transport.send(request)
            return left > timeout
                ? sent.timeout(timeout, scheduler: client.scheduler)
                : sent.timeout(left, scheduler: client.scheduler, fallback: DataStream<UpstreamResponse>.just(error: deadlineExceeded))
        }
        // The transport's own timer, where a `timeout` stage per attempt cost ~3,100
        // instructions an exchange besides its timer (the figure: Benchmarks/README.md).
        request.timeout = left > timeout ? .attempt(timeout) : UpstreamTimeout(after: left, failure: deadlineExceeded)
        return client.transport.send(request)
    }

    /// A 2xx, or a redirect with somewhere to go, passes; anything else fails the attempt.
    static func check(_ response: UpstreamResponse) throws(UpstreamError) {
        if GitHubClient.isRedirect(response.status), response.header("location") != nil { return }
        if let failure = UpstreamError(answer: response) { throw failure }
    }

    /// Retry `number` decided, after `delay`, for `error`.
    func retrying(_ number: Int, after delay: Duration, error: any Error) {
        retries.store(number, ordering: .relaxed)
        client.metrics.retried()
        span?.retrying(number, after: delay, error: error)
        trace?.publish(.retry, stage: stage.name, detail: "retry \(number) in \(delay.text) after \(UpstreamError(classifying: error))")
    }

    func failure(_ error: any Error) -> UpstreamFailure {
        UpstreamFailure(Self.classify(error, deadline: client.configuration.deadline), stage: stage, retries: retries.load(ordering: .relaxed))
    }

    /// The call failed for good with `error` (no redirect): its recording span ends with the
    /// classified failure, and the failure that goes downstream is returned.
    func finalFailure(_ error: any Error) -> UpstreamFailure {
        let failure = failure(error)
        recordingSpan?.end(failure: failure.error)
        return failure
    }

    /// The deadline's `timeout` fails with a `StreamTimeoutError` of the deadline's length; an
    /// attempt's, with the attempt timeout (a transport's, with `UpstreamError.timeout`). When the
    /// two are equal the first attempt is cut at the deadline either way, and saying so is true.
    static func classify(_ error: any Error, deadline: Duration) -> UpstreamError {
        let classified = UpstreamError(classifying: error)
        if case .timeout(let after) = classified, after == deadline { return .deadlineExceeded(after: deadline) }
        return classified
    }

    /// The GET of the place an answer redirects to (a call of its own, with its own retries).
    /// `request(_:)` gives the token to the API origin only, so a hop to another origin (an
    /// avatar host, another port) goes without it.
    func following(_ location: String) -> DataStream<UpstreamResponse> {
        guard hopsLeft > 0 else {
            return .just(error: UpstreamFailure(.malformed("more than \(GitHubClient.maxRedirects) redirects, the last to \(location)"), stage: stage))
        }
        guard let target = URL(string: location, relativeTo: url)?.absoluteURL, ["http", "https"].contains(target.scheme?.lowercased()) else {
            return .just(error: UpstreamFailure(.malformed("redirect to an unusable location \(location)"), stage: stage))
        }
        return client.get(target, stage: stage, trace: trace, hopsLeft: hopsLeft - 1)
    }
}

/// One attempt's metrics: in flight from its start until the first of success, failure or
/// cancellation, which also records its outcome and duration.
final class AttemptMeter: Sendable {
    private let metrics: UpstreamMetrics
    /// The fused call this attempt belongs to, which its events go on to (`UpstreamCallRun`); nil
    /// in the operators' composition, where stages carry them.
    let run: UpstreamCallRun?
    private let started = ContinuousClock.now
    /// An `Atomic` in place rather than a `OnceFlag`: one allocation fewer per attempt.
    private let finished = Atomic<Bool>(false)

    init(metrics: UpstreamMetrics, run: UpstreamCallRun? = nil) {
        self.metrics = metrics
        self.run = run
        metrics.attemptStarted()
    }

    /// Finishes the attempt with `response`: a success when it passes `UpstreamCall.check`,
    /// else the failure's outcome, and the failure is thrown.
    func finish(checking response: UpstreamResponse) throws(UpstreamError) {
        do {
            try UpstreamCall.check(response)
        } catch {
            finish(GitHubClient.outcome(for: error))
            throw error
        }
        finish(.success)
    }

    func finish(_ outcome: UpstreamMetrics.Outcome) {
        guard !finished.exchange(true, ordering: .acquiringAndReleasing) else { return }
        metrics.attemptFinished(outcome, seconds: (ContinuousClock.now - started).seconds)
    }
}
