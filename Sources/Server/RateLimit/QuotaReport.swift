// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import CoreMetrics
import Domain

/// The operator's upstream quota where operators look: `/metrics` (remaining and limit, read at
/// every scrape) and `/ready` (a fragment saying whether the reserve holds uncached work back).
struct QuotaReport: Sendable {
    static let remainingName = "upstream_ratelimit_remaining"
    static let limitName = "upstream_ratelimit_limit"
    static let reserveName = "upstream_ratelimit_reserve"
    static let descriptions = [
        MetricDescription(remainingName, help: "Upstream requests left in the rate-limit window, as the upstream last reported (-1 before any report)."),
        MetricDescription(limitName, help: "Upstream requests allowed per rate-limit window, as the upstream last reported (-1 before any report)."),
        MetricDescription(reserveName, help: "Upstream requests kept back from clients; at this many remaining, uncached work waits for the reset."),
    ]

    let quota: UpstreamQuota

    /// Gauges set from the last report; call before each scrape.
    func sampler(factory: any MetricsFactory) -> @Sendable () -> Void {
        let remaining = Meter(label: Self.remainingName, factory: factory)
        let limit = Meter(label: Self.limitName, factory: factory)
        let reserve = Meter(label: Self.reserveName, factory: factory)
        let quota = self.quota
        return {
            let snapshot = quota.snapshot
            remaining.set(snapshot?.remaining ?? -1)
            limit.set(snapshot?.limit ?? -1)
            reserve.set(snapshot.map { quota.reserve(for: $0.limit) } ?? quota.reserve ?? -1)
        }
    }

    /// `,"upstreamQuota":{…}` for `/ready`'s body; empty before the upstream reported a limit.
    func readinessFragment() -> String {
        guard let snapshot = quota.snapshot else { return "" }
        let wait = quota.reservedWait()
        let state = wait.map { #""reserved","retryAfter":\#($0)"# } ?? #""available""#
        return #","upstreamQuota":{"status":\#(state),"remaining":\#(snapshot.remaining),"limit":\#(snapshot.limit),"reserve":\#(quota.reserve(for: snapshot.limit))}"#
    }
}
