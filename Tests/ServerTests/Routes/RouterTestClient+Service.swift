// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Domain
import Foundation
import HTTP
import HTTPTesting
import Streams
@testable import Server

extension RouterTestClient {
    /// The service's routes as `Application` builds them (`ServiceRouter`: its middlewares, `/ticks`,
    /// `/events`, the user routes; no access control), run in process: for what a route answers
    /// before it needs an upstream — a validation problem, a 204 — with no server, no socket and no
    /// application to start. The user routes' upstream is 127.0.0.1 port 1, where nothing listens:
    /// a test of an upstream's answer, or of the wire, uses `UserAPIFixture` or `AppHarness`.
    static func service() -> RouterTestClient {
        let hub = PipelineEventHub()
        let metrics = ServiceMetrics()
        let responder = EventStreamResponder(heartbeat: nil, subscribers: nil)
        let client = GitHubClient(
            configuration: .init(baseURL: URL(string: "http://127.0.0.1:1")!), transport: HTTPUpstreamTransport(),
            scheduler: QueueScheduler(label: "test.upstream"), metrics: metrics.upstream())
        let router = ServiceRouter(
            metrics: metrics, responder: responder, eventFeed: PipelineEventFeed(hub: hub),
            readiness: ReadinessRoute(probe: { .just(true) }, isShuttingDown: { false }),
            userRoutes: UpstreamServices(client: client, hub: hub).routes(responder: responder)
        ).build()
        return RouterTestClient(router)
    }
}

extension TestResponse {
    /// The body as a JSON object (a problem document's members), or nil.
    var bodyJSON: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
    }
}
