// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import NetCore
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
    /// Tokens, protected areas and client identity; nil = everything open to anyone.
    var access: AccessControl?
    /// Each client's upstream budget (`--client-upstream-rate`); nil = unlimited.
    var budget: UpstreamBudget?
    /// Each client address's request cap (`--client-request-rate`); nil = none.
    var requestRate: LocalRateLimiter<AddressDebts>?
    /// How the request cap tells client addresses apart (`--rate-limit-ipv6-prefix`).
    var addresses = ClientAddressKey.standard
    /// Where the page links a traced run (`--trace-link-template`); nil = the trace id alone.
    var traceLinkTemplate: String?

    func build() -> Router {
        var router = Router()
        // Caching outermost, so a CORS preflight gets Cache-Control too and a 304 keeps the CORS headers.
        router.add(middleware: CacheControlMiddleware())
        router.add(middleware: CORSMiddleware(origins: corsOrigins, credentials: access?.cookie != nil))
        if let requestRate { router.add(gate: RequestRateGate(limiter: requestRate, proxies: access?.proxies ?? .none, addresses: addresses)) }
        let metricsRoute = MetricsRoute(metrics: metrics)
        let ticks = TicksRoute(responder: responder)
        let events = EventsRoute(feed: eventFeed, responder: responder, access: access)
        let readiness = self.readiness
        router.get("/health") { HealthRoute.handle($0) }
        router.get("/ready") { readiness.handle($0) }
        if let access, access.protects(.metrics) {
            router.get("/metrics") { access.guarded($0, .metrics) { request, caller in metricsRoute.handle(request, caller: caller, access: access) } }
        } else {
            router.get("/metrics") { metricsRoute.handle($0) }
        }
        router.get("/openapi.yaml") { OpenAPIRoute.handle($0) }
        PageRoute.register(on: &router, traceLinkTemplate: traceLinkTemplate)
        router.get("/ticks") { ticks.handle($0) }
        if let access, access.readsTokens {
            router.get("/events") { access.guarded($0, .events) { request, caller in events.handle(request, caller: caller) } }
        } else {
            router.get("/events") { events.handle($0) }
        }
        var userRoutes = userRoutes
        userRoutes?.access = access
        userRoutes?.budget = budget
        userRoutes?.register(on: &router)
        return router
    }
}
