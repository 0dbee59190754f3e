import HTTP
import Streams

/// `GET /metrics`: every family in Prometheus text format (version 0.0.4).
struct MetricsRoute: Sendable {
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    let metrics: ServiceMetrics

    func handle(_ request: Request) -> DataStream<Response> {
        let metrics = self.metrics
        return DataStream.deferred {
            DataStream.just(Response(status: .ok, headers: ["Content-Type": Self.contentType], body: .bytes(metrics.scrape())))
        }
    }
}
