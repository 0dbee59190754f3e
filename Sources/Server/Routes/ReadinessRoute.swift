// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import Streams

/// `GET /ready`: 200 when the service can do its job, 503 when the upstream
/// probe fails or the server is draining or shutting down (so a balancer stops sending traffic).
/// With a shared feed, the body also says `"events": "shared"` or `"degraded"`:
/// Redis being away degrades `/events` but never makes a replica unready.
struct ReadinessRoute: Sendable {
    /// Whether the upstream answered. Supplied by Domain.
    let probe: @Sendable () -> Single<Bool>
    let isShuttingDown: @Sendable () -> Bool
    /// Draining before a stop (`stream-service drain`): unready, still serving.
    var isDraining: @Sendable () -> Bool = { false }
    /// The shared feed's status; nil without `--redis-url`.
    var eventsStatus: @Sendable () -> String? = { nil }
    /// A JSON fragment (`,"upstreamQuota":{…}`) on the upstream's rate limit; empty when unknown.
    /// The reserve being reached never makes a replica unready: cached answers are still served.
    var quotaStatus: @Sendable () -> String = { "" }

    func handle(_ request: Request) -> DataStream<Response> {
        if isShuttingDown() {
            return .just(.problem(status: .serviceUnavailable, detail: "The server is shutting down", instance: request.path))
        }
        if isDraining() {
            return .just(.problem(status: .serviceUnavailable, detail: "The server is draining before it stops", instance: request.path))
        }
        let events = (eventsStatus().map { #","events":"\#($0)""# } ?? "") + quotaStatus()
        // A probe that fails means unreachable.
        return probe()
            .recover(false)
            .asDataStream()
            .map { reachable in
                reachable
                    ? .json(Array(#"{"status":"ready"\#(events)}"#.utf8))
                    : .problem(status: .serviceUnavailable, detail: "The upstream is unreachable", instance: request.path)
            }
    }
}
