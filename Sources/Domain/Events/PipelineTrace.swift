import StreamServiceConcurrency
import Streams

/// Names one pipeline run (pipeline name + request id) and publishes its events to a hub.
public struct PipelineTrace: Sendable {
    public let hub: PipelineEventHub
    public let pipeline: String
    public let requestId: String

    public init(hub: PipelineEventHub, pipeline: String, requestId: String) {
        self.hub = hub
        self.pipeline = pipeline
        self.requestId = requestId
    }

    public func publish(_ kind: PipelineEvent.Kind, stage: String, detail: String? = nil) {
        hub.publish(PipelineEvent(kind: kind, pipeline: pipeline, requestId: requestId, stage: stage, detail: detail))
    }
}

extension StreamType where Element: Sendable {
    /// Publishes this stage's life to the trace: subscribe, each data (described by
    /// `describe`), error or end, and dispose when cancelled before finishing.
    public func traced(
        _ trace: PipelineTrace?, stage: String, describe: @escaping @Sendable (Element) -> String? = { _ in nil }
    ) -> DataStream<Element> {
        guard let trace else { return asDataStream() }
        return DataStream.deferred {
            // One closing event per run: end, error or (before either) dispose.
            let finished = OnceFlag()
            return self.call(
                data: { trace.publish(.data, stage: stage, detail: describe($0)) },
                error: { error in if finished.set() { trace.publish(.error, stage: stage, detail: String(describing: error)) } },
                end: { if finished.set() { trace.publish(.end, stage: stage) } },
                watched: { trace.publish(.subscribe, stage: stage) },
                disposed: { if finished.set() { trace.publish(.dispose, stage: stage) } })
        }
    }
}
