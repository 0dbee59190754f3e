// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

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

    /// Behind `--auth-protect metrics`: the token must say `"streamservice": {"metrics": true}`,
    /// so a subscriber's token for `/events` does not open the service's internals too.
    func handle(_ request: Request, caller: Caller, access: AccessControl) -> DataStream<Response> {
        guard caller.claims?.metrics == true else {
            let refusal = AuthRefusal.forbidden("reading /metrics (it needs \"streamservice\": {\"metrics\": true})")
            access.countRefusal(refusal)
            return .just(refusal.response(instance: request.path))
        }
        return handle(request)
    }
}
