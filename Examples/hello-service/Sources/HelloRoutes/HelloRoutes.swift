// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import Streams

/// The example's routes: a JSON greeting, a call to an upstream with a timeout and retries, and
/// a Server-Sent Events feed of ticks. `scheduler` runs the timers (a `TestScheduler` in tests).
public struct HelloRoutes: Sendable {
    public var upstream: String
    public var scheduler: any Scheduler
    public var client: HTTPClient
    /// Every event stream's headers, first message and heartbeats (one clock for all of them).
    public var events: EventStreamResponder

    /// `client` should fail a 5xx or a 429 (`statusPolicy: .failRetryable`, as the default one
    /// does): `/quote` retries errors, and an answer of any status is none.
    public init(
        upstream: String, scheduler: any Scheduler = QueueScheduler.global, client: HTTPClient = HTTPClient(statusPolicy: .failRetryable)
    ) {
        self.upstream = upstream
        self.scheduler = scheduler
        self.client = client
        let heartbeat = HeartbeatClock(period: .seconds(15), scheduler: scheduler)
        heartbeat.start()
        events = EventStreamResponder(heartbeat: heartbeat, subscribers: nil)
    }

    struct Greeting: Encodable {
        var greeting: String
    }

    public var router: Router {
        var router = Router()
        let routes = self
        // A bad or unknown parameter answers 400 problem+json, with "did you mean" for a misspelling.
        router.get("/hello") { request in
            request.withQuery({ try $0.value("name") ?? "world" }) { name in
                DataStream.just(name).map { name in try Response.json(encoding: Greeting(greeting: "hello, \(name)")) }
            }
        }
        // Each attempt has 2 s; a 5xx, a 429 (errors by the client's status policy) or a failed
        // connection is tried again, twice: after the upstream's Retry-After when it names one,
        // else 100 ms, then 200 ms later; never waiting more than 5 s in all.
        router.get("/quote") { _ in
            guard let request = HTTPClientRequest(url: routes.upstream) else { return .just(.text("bad upstream URL", status: .internalServerError)) }
            return routes.client.send(request)
                .timeout(.seconds(2), scheduler: routes.scheduler)
                .retry(2, backoff: .honouringRetryAfter(initialDelay: .milliseconds(100), jitter: 0, maxTotalWait: .seconds(5)), scheduler: routes.scheduler)
                .map { answer in Response.text(String(decoding: answer.body, as: UTF8.self), status: answer.status) }
                .recover { _ in .just(.text("the upstream is away", status: .badGateway)) }
        }
        // One event a second, numbered, for as long as the client listens.
        router.get("/ticks") { _ in
            let ticks = DataStream.interval(.seconds(1), scheduler: routes.scheduler)
                .map { ServerSentEvent(id: String($0), data: "tick \($0)") }
            return .just(routes.events.response(ticks))
        }
        return router
    }
}
