// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP

/// Who sent a request, as the routes that care see it: the client's address (through trusted
/// proxies) and, when it presented a valid token, its claims.
struct Caller: Sendable {
    let claims: JWTClaims?
    // The address is worked out when asked: only a budget kept for a caller without a subject reads
    // it, and it costs a walk of the forwarded fields and a string.
    private let request: Request
    private let proxies: TrustedProxies

    init(_ request: Request, trusting proxies: TrustedProxies, claims: JWTClaims?) {
        self.request = request
        self.proxies = proxies
        self.claims = claims
    }

    /// What per-client budgets are kept under: the token's subject when there is one (the same
    /// user from several addresses shares one budget), else the client address (an IPv6 one by
    /// its prefix, `addresses`).
    func budgetKey(_ addresses: ClientAddressKey) -> String {
        if let subject = claims?.subject, !subject.isEmpty { return "sub:\(subject)" }
        guard let address = clientAddress(of: request, trusting: proxies) else { return "addr:\(request.remoteAddress)" }
        return "addr:" + addresses.text(address)
    }
}
