import Domain
import HTTP
import Streams

/// `GET /events?pipeline=&kinds=`: the live feed of pipeline events, filtered,
/// resuming after `Last-Event-ID` from the feed's replay buffer.
struct EventsRoute: Sendable {
    let feed: PipelineEventFeed
    let responder: EventStreamResponder

    func handle(_ request: Request) -> DataStream<Response> {
        let filter: PipelineEventFilter
        do {
            filter = try PipelineEventFilter(pipeline: request.query["pipeline"], kinds: request.query["kinds"])
        } catch PipelineEventFilter.Invalid.unknownKind(let kind) {
            let known = PipelineEvent.Kind.allCases.map(\.rawValue).joined(separator: ",")
            return .just(.problem(status: .badRequest, detail: "Query parameter 'kinds' has unknown kind '\(kind)'; known kinds: \(known)", instance: request.path))
        } catch {
            return .just(.problem(status: .badRequest, detail: "Invalid query: \(error)", instance: request.path))
        }
        let events = feed.broadcaster.subscribe(after: request.lastEventID, on: request.loopScheduler?.loop) { PipelineEventFeed.admits($0, filter) }
        return .just(responder.response(encoded: events))
    }
}
