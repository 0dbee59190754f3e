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
        return DataStream { watcher in
            let finished = OnceFlag()
            trace.publish(.subscribe, stage: stage)
            let subscription = self.watch { event in
                switch event {
                case .data(let value):
                    trace.publish(.data, stage: stage, detail: describe(value))
                case .error(let error):
                    if finished.set() { trace.publish(.error, stage: stage, detail: String(describing: error)) }
                case .end:
                    if finished.set() { trace.publish(.end, stage: stage) }
                }
                watcher.event(event)
            }
            return Disposable {
                if finished.set() { trace.publish(.dispose, stage: stage) }
                subscription.dispose()
            }
        }
    }
}
