// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import NetCore

/// `--client-request-rate`: a cheap cap on every route's requests per client address, before any
/// other work (so `/health` and the page are protected too). In-process only: a request costs a
/// lock and a probe of the address table, and a flood is stopped by the replica it floods. A
/// router gate, not a middleware: it refuses or lets by, and a stage of its own cost more than
/// the check (Benchmarks/README.md, issue 28).
final class RequestRateGate: RouterGate {
    let limiter: LocalRateLimiter<AddressDebts>
    let proxies: TrustedProxies
    let addresses: ClientAddressKey

    init(limiter: LocalRateLimiter<AddressDebts>, proxies: TrustedProxies, addresses: ClientAddressKey = .standard) {
        self.limiter = limiter
        self.proxies = proxies
        self.addresses = addresses
    }

    // Inlined, with what it calls, into the router's call: three calls' frames were a tenth of the check.
    @inline(__always)
    func refusal(for request: Request) -> Response? {
        // A peer that is no IP address (a Unix socket) has no client address to cap.
        guard let client = clientAddress(of: request, trusting: proxies),
              let refused = limiter.takeUnlessRefused(addresses.key(client)) else { return nil }
        return refused.refusal(limiter.policy, what: "The request rate", instance: request.path)
    }
}
