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
    var corsOrigins: CORSOrigins = .none

    func build() -> Router {
        var router = Router()
        // Caching outermost, so a CORS preflight gets Cache-Control too and a 304 keeps the CORS headers.
        router.add(middleware: CacheControlMiddleware())
        router.add(middleware: CORSMiddleware(origins: corsOrigins))
        let metricsRoute = MetricsRoute(metrics: metrics)
        let ticks = TicksRoute(responder: responder)
        let events = EventsRoute(feed: eventFeed, responder: responder)
        let readiness = self.readiness
        router.get("/health") { HealthRoute.handle($0) }
        router.get("/ready") { readiness.handle($0) }
        router.get("/metrics") { metricsRoute.handle($0) }
        router.get("/openapi.yaml") { OpenAPIRoute.handle($0) }
        PageRoute.register(on: &router)
        router.get("/ticks") { ticks.handle($0) }
        router.get("/events") { events.handle($0) }
        userRoutes?.register(on: &router)
        return router
    }
}
