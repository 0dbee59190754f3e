import Domain
import HTTP
import Streams

/// `GET /events?pipeline=&kinds=`: the live feed of pipeline events, filtered,
/// resuming after `Last-Event-ID` from the feed's replay buffer.
struct EventsRoute: Sendable {
    let feed: PipelineEventFeed
    let responder: EventStreamResponder

    func handle(_ request: Request) -> DataStream<Response> {
        request.withQuery(Self.filter, ignoring: IgnoredQueryParameters.names) { filter in
            let events = feed.subscribe(after: request.lastEventID, on: request.loopScheduler?.loop) { PipelineEventFeed.admits($0, filter) }
            return .just(responder.response(encoded: events))
        }
    }

    /// `?pipeline=` (empty: any) and `?kinds=` (comma list; empty: any).
    static func filter(_ parameters: QueryParameters) throws(InvalidQueryParameter) -> PipelineEventFilter {
        let pipeline = try parameters.value("pipeline")
        return PipelineEventFilter(
            pipeline: pipeline?.isEmpty == false ? pipeline : nil,
            kinds: try parameters.choices("kinds", of: PipelineEvent.Kind.self))
    }
}
