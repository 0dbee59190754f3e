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
        // CORS outermost, so 404/405 problems and 304s carry its headers too.
        router.add(middleware: CORSMiddleware(origins: corsOrigins))
        router.add(middleware: CacheControlMiddleware())
        let metricsRoute = MetricsRoute(registry: metrics.registry)
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
