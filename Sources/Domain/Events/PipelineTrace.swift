// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import Streams
import Synchronization

/// Names one pipeline run (pipeline name + request id) and publishes its events to a hub.
///
/// A class: every traced stage of a run captures it, and as a struct (a hub and two strings)
/// each capture copied three references and, held in an Optional, looked up its type
/// (the figure: Benchmarks/README.md).
public final class PipelineTrace: Sendable {
    public let hub: PipelineEventHub
    /// The run's names, apart from the hub: the hub's records of this run's events keep them,
    /// and keeping the trace itself would make a cycle through the hub.
    let run: PipelineRun
    /// What the run spends upstream, charged to its client's budget; nil = not metered.
    public let usage: UpstreamUsage?

    public var pipeline: String { run.pipeline }
    public var requestId: String { run.requestId }
    /// The trace of the request the run answers (its events carry it); nil when not traced.
    public var traceId: String? { run.traceId }
    /// What every upstream exchange of a request whose trace is not recorded sends
    /// (`traceparent`, …), written once for the run: its exchanges and stages begin no span, as
    /// each would be the request's context as it is (`UnrecordedTrace`). Nil otherwise: they
    /// begin spans in the context current where they are subscribed.
    public let unrecordedFields: HTTPHeaders?

    public init(
        hub: PipelineEventHub, pipeline: String, requestId: String, usage: UpstreamUsage? = nil, traceId: String? = nil,
        unrecorded: UnrecordedTrace? = nil
    ) {
        self.hub = hub
        run = PipelineRun(pipeline: pipeline, requestId: requestId, traceId: traceId)
        self.usage = usage
        unrecordedFields = unrecorded?.propagationFields()
    }

    public func publish(_ kind: PipelineEvent.Kind, stage: String, detail: String? = nil) {
        hub.publish(kind, of: run, stage: stage, detail: detail)
    }
}

/// One pipeline run's names: the pipeline and the request it serves.
public final class PipelineRun: Sendable {
    let pipeline: String
    let requestId: String
    let traceId: String?

    init(pipeline: String, requestId: String, traceId: String?) {
        self.pipeline = pipeline
        self.requestId = requestId
        self.traceId = traceId
    }
}

extension StreamType where Element: Sendable {
    /// Publishes this stage's life to the trace: subscribe, each data (described by
    /// `describe`), error or end, and dispose when cancelled before finishing.
    public func traced(
        _ trace: PipelineTrace?, stage: String, describe: @escaping @Sendable (Element) -> String? = { _ in nil }
    ) -> DataStream<Element> {
        traced(trace, stage: stage, describe: describe, valueEnds: false)
    }

    /// With `valueEnds`, a value is published with its end (a single's `-v|`): for a `Single`, or
    /// a stream that is one without the type (`GitHubClient.avatar(url:login:trace:_:)`).
    func traced(
        _ trace: PipelineTrace?, stage: String, describe: @escaping @Sendable (Element) -> String?, valueEnds: Bool
    ) -> DataStream<Element> {
        guard let trace else { return asDataStream() }
        return DataStream.deferred {
            let run = TracedRun(trace: trace, stage: stage, describe: describe)
            return self.call(
                data: { valueEnds ? run.value($0) : run.data($0) }, error: { run.error($0) }, end: { run.end() },
                watched: { run.watched() }, disposed: { run.disposed() })
        }
    }
}

extension Single {
    /// As `StreamType.traced`, for a stage of one value: a single's value is its end (`-v|`), so
    /// both are published as the value arrives. A consumer that stops watching once it has the
    /// value — the HTTP server, answering with it — then does not leave a lane ending in
    /// `dispose` with no `end`.
    public func traced(
        _ trace: PipelineTrace?, stage: String, describe: @escaping @Sendable (Element) -> String? = { _ in nil }
    ) -> DataStream<Element> {
        traced(trace, stage: stage, describe: describe, valueEnds: true)
    }
}

/// One subscription's trace of a stage: the side effects `traced` adds, as methods of one
/// object, so its five closures capture that object alone and need no context of their own
/// (closures capturing trace, stage, describe and a once-flag each needed a context of their
/// own) (the figure: Benchmarks/README.md).
final class TracedRun<Element>: Sendable {
    private let trace: PipelineTrace
    private let stage: String
    private let describe: @Sendable (Element) -> String?
    /// One closing event per run: end, error or (before either) dispose. An `Atomic` in place
    /// rather than a `OnceFlag`: one allocation fewer per run.
    private let finished = Atomic<Bool>(false)

    init(trace: PipelineTrace, stage: String, describe: @escaping @Sendable (Element) -> String?) {
        self.trace = trace
        self.stage = stage
        self.describe = describe
    }

    func watched() { trace.publish(.subscribe, stage: stage) }

    func data(_ element: Element) { trace.publish(.data, stage: stage, detail: describe(element)) }

    func error(_ error: any Error) {
        if finish() { trace.publish(.error, stage: stage, detail: String(describing: error)) }
    }

    func end() {
        if finish() { trace.publish(.end, stage: stage) }
    }

    /// A single's value: the data, then at once its end.
    func value(_ element: Element) {
        data(element)
        end()
    }

    func disposed() {
        if finish() { trace.publish(.dispose, stage: stage) }
    }

    private func finish() -> Bool { !finished.exchange(true, ordering: .acquiringAndReleasing) }
}
