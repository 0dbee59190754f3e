import ConcurrencyHelpers
import HTTP
import Streams

/// The service's own metric families, registered in one registry, and the
/// recording of each completed request into them.
public final class ServiceMetrics: Sendable {
    public let registry: MetricsRegistry
    public let requestsTotal: Counter
    public let requestDuration: Histogram
    public let connectionsOpen: Gauge
    public let sseSubscribers: Gauge

    /// Route label for requests that matched no route, so scanners cannot blow up cardinality.
    public static let unmatchedRoute = "unmatched"

    public init(registry: MetricsRegistry = MetricsRegistry()) {
        self.registry = registry
        requestsTotal = registry.counter(
            "http_requests_total", help: "HTTP requests answered, by method, route pattern and status.",
            labels: ["method", "route", "status"])
        requestDuration = registry.histogram(
            "http_request_duration_seconds",
            help: "Time from a request's arrival to its last response byte, by route pattern.",
            labels: ["route"])
        connectionsOpen = registry.gauge("http_connections_open", help: "Client connections currently open.")
        sseSubscribers = registry.gauge("sse_subscribers", help: "Server-Sent Events responses currently streaming.")
        registry.gauge(
            "stream_subscriptions_live", help: "Stream subscriptions alive in the process (Streams leak check).",
            sample: { Double(StreamDiagnostics.liveSubscriptions) })
    }

    public func record(_ request: CompletedRequest) {
        let route = request.routePattern ?? Self.unmatchedRoute
        requestsTotal.increment([Self.methodLabel(request.method), route, String(request.status)])
        requestDuration.observe(request.duration.seconds, [route])
    }

    /// Standard methods as sent; anything else is one label, for the same cardinality reason as routes.
    static func methodLabel(_ method: HTTPMethod) -> String {
        switch method {
        case .get, .head, .post, .put, .patch, .delete, .options: method.rawValue
        default: "other"
        }
    }
}
