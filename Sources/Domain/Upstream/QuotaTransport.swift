// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Streams

/// The stage that sees every exchange really sent upstream (below the cache and single flight):
/// it charges the request's `UpstreamUsage` for each answer that is not a 304, keeps
/// `UpstreamQuota` up to date from the answers' rate-limit fields, and, while the quota's reserve
/// is reached, fails new uncached API requests at once with a rate limit lasting until the reset.
/// Conditional requests (a cached answer's revalidation) still go: a 304 costs nothing; and so do
/// requests to other origins (GitHub's avatar host), which the API's limit does not count.
///
///     send(uncached), reserve reached:   #rateLimited(until reset)
///     send(conditional):                 --304|            (no charge)
///     send(uncached):                    --200|            (usage charged 1)
public struct QuotaTransport: UpstreamTransport {
    let next: any UpstreamTransport
    let quota: UpstreamQuota?
    /// The origin whose requests the quota counts: the API's.
    let api: UpstreamOrigin

    public init(_ next: any UpstreamTransport, quota: UpstreamQuota?, api: UpstreamOrigin) {
        self.next = next
        self.quota = quota
        self.api = api
    }

    /// GitHub does not count `/rate_limit` (the readiness probe), so the reserve never holds it back.
    static let freePath = "/rate_limit"

    /// A refusal fails at once; anything else is the next transport's exchange.
    public var keepsTimeouts: Bool { next.keepsTimeouts }

    public var readsServiceContext: Bool { next.readsServiceContext }

    public func send(_ request: UpstreamRequest) -> DataStream<UpstreamResponse> {
        if let quota, request.conditions.isEmpty, let wait = quota.reservedWait(),
           !request.url.path.hasSuffix(Self.freePath), UpstreamOrigin(request.url) == api {
            return .just(error: UpstreamError.rateLimited(retryAfterSeconds: wait))
        }
        let usage = request.usage
        guard quota != nil || usage != nil else { return next.send(request) }
        return next.send(request) { [quota] response in
            quota?.observe(response)
            if response.status != 304 { usage?.charge() }
        }
    }
}
