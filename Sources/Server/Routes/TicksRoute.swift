import HTTP
import Streams

/// `GET /ticks?everyMs=&count=`: the "hello world" pipeline, `interval → take → map`.
/// Event K (K = 0, 1, …) is due K × everyMs after the request and carries
/// `id: K` and `data: tick K`; after `count` events the response ends.
///
/// A reconnecting EventSource sends `Last-Event-ID: K`; it resumes with event
/// K + 1 at once. When K is already the last event the feed is over and the
/// answer is `204`, which tells the EventSource to stop reconnecting.
struct TicksRoute: Sendable {
    static let everyMsRange = 1...60_000
    static let countRange = 1...1_000_000
    static let defaultEveryMs = 1000
    static let defaultCount = 10

    let responder: EventStreamResponder

    func handle(_ request: Request) -> DataStream<Response> {
        let everyMs: Int
        let count: Int
        do {
            everyMs = try Self.integer("everyMs", in: request, range: Self.everyMsRange, default: Self.defaultEveryMs)
            count = try Self.integer("count", in: request, range: Self.countRange, default: Self.defaultCount)
        } catch {
            return .just(.problem(status: .badRequest, detail: error.detail, instance: request.path))
        }
        var resumeAt = 0
        if let lastSeen = request.lastEventID, lastSeen >= 0 {
            guard lastSeen < count - 1 else { return .just(EventStreamResponder.noMoreEvents()) }
            resumeAt = lastSeen + 1
        }
        let first = resumeAt
        // On the connection's own loop: each tick is written where it fires, and all feeds share one timer per loop.
        let scheduler: any Scheduler = request.loopScheduler ?? QueueScheduler.global
        let ticks = DataStream.interval(.milliseconds(everyMs), scheduler: scheduler)
            .take(count - first)
            .map { index in
                let k = first + index
                return ServerSentEvent(id: String(k), data: "tick \(k)")
            }
        return .just(responder.response(ticks))
    }

    struct InvalidParameter: Error {
        let detail: String
    }

    static func integer(_ name: String, in request: Request, range: ClosedRange<Int>, default value: Int) throws(InvalidParameter) -> Int {
        guard let text = request.query[name] else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw InvalidParameter(detail: "Query parameter '\(name)' must be an integer from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
        }
        return number
    }
}
