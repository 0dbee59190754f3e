import HTTP
import Streams

/// The route table of the service: operational routes, the SSE demo feeds and
/// the user API.
struct ServiceRouter {
    let metrics: ServiceMetrics
    let responder: EventStreamResponder
    let eventFeed: PipelineEventFeed
    let readiness: ReadinessRoute
    let userRoutes: UserRoutes?

    func build() -> Router {
        var router = Router()
        let metricsRoute = MetricsRoute(registry: metrics.registry)
        let ticks = TicksRoute(responder: responder)
        let events = EventsRoute(feed: eventFeed, responder: responder)
        let readiness = self.readiness
        router.get("/health") { HealthRoute.handle($0) }
        router.get("/ready") { readiness.handle($0) }
        router.get("/metrics") { metricsRoute.handle($0) }
        router.get("/openapi.yaml") { OpenAPIRoute.handle($0) }
        router.get("/ticks") { ticks.handle($0) }
        router.get("/events") { events.handle($0) }
        userRoutes?.register(on: &router)
        return router
    }
}
