import HTTP
import Streams

/// `GET /metrics`: every registered family in Prometheus text format.
struct MetricsRoute: Sendable {
    let registry: MetricsRegistry

    func handle(_ request: Request) -> DataStream<Response> {
        let registry = self.registry
        return DataStream.deferred {
            DataStream.just(Response(status: .ok, headers: ["Content-Type": PrometheusText.contentType], body: .bytes(Array(registry.render().utf8))))
        }
    }
}
