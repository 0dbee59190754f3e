// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP

/// One check of a client's budget: whether it may go on, and what the IETF `RateLimit-Policy`
/// and `RateLimit` fields (draft-ietf-httpapi-ratelimit-headers) tell it.
struct RateDecision: Sendable, Equatable {
    var allowed: Bool
    /// Units left now.
    var remaining: Int
    /// Seconds until the budget is whole again.
    var resetSeconds: Int
    /// Seconds until one unit is available (0 when allowed).
    var retryAfterSeconds: Int

    /// The decision on `cost` units for a client whose debt is `level` seconds, under `policy`.
    init(level: Double, policy: RatePolicy, cost: Int = 1) {
        let level = max(0, level)
        allowed = policy.admits(debt: level, cost: cost)
        remaining = max(0, Int(((policy.capacity - level) / policy.interval + 1e-9).rounded(.down)))
        resetSeconds = Int(level.rounded(.up))
        retryAfterSeconds = allowed ? 0 : max(1, Int((level + policy.footprint(cost) - policy.capacity).rounded(.up)))
    }

    /// Allowed and charged: what is left once the request's units are on a debt of `level` seconds.
    init(allowedAfter level: Double, policy: RatePolicy) {
        self.init(level: level, policy: policy, cost: 0)
        allowed = true
        retryAfterSeconds = 0
    }

    /// `"upstream";q=120;w=60`: the policy's quota per window.
    static func policyField(_ policy: RatePolicy) -> String {
        #""\#(policy.name)";q=\#(policy.count);w=\#(Int(policy.periodSeconds.rounded()))"#
    }

    /// `"upstream";r=0;t=12`: what is left and when it is whole again.
    func field(_ policy: RatePolicy) -> String {
        #""\#(policy.name)";r=\#(remaining);t=\#(allowed ? resetSeconds : retryAfterSeconds)"#
    }

    /// The fields on an allowed response.
    func add(to headers: inout HTTPHeaders, policy: RatePolicy) {
        headers.replaceOrAdd(name: "RateLimit-Policy", value: Self.policyField(policy))
        headers.replaceOrAdd(name: "RateLimit", value: field(policy))
    }

    /// `429 Too Many Requests` with `Retry-After` and the fields, as problem+json.
    func refusal(_ policy: RatePolicy, what: String, instance: String) -> Response {
        var headers = HTTPHeaders()
        headers.add(name: "Retry-After", value: String(retryAfterSeconds))
        add(to: &headers, policy: policy)
        headers.add(name: "Cache-Control", value: "no-store")
        return .problem(
            status: .tooManyRequests,
            detail: "\(what) exceeds \(policy.count) per \(Int(policy.periodSeconds.rounded())) s for this client; retry after \(retryAfterSeconds) s",
            instance: instance, headers: headers)
    }
}
