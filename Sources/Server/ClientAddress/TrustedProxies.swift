// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore

/// The proxies whose word about the client is believed (`--trusted-proxies`, CIDRs; none by
/// default). A request whose socket peer is one of them names its client in `X-Forwarded-For`
/// or `Forwarded`; every other request's client is its socket peer, whatever it claims.
public struct TrustedProxies: Sendable, Equatable {
    let blocks: [CIDRBlock]

    public static let none = TrustedProxies(blocks: [])

    init(blocks: [CIDRBlock]) {
        self.blocks = blocks
    }

    /// Parses `10.0.0.0/8,127.0.0.1,fd00::/8`; the reason names the first bad entry.
    public static func parse(_ text: String) -> Result<TrustedProxies, TrustedProxiesError> {
        var blocks: [CIDRBlock] = []
        for entry in text.split(separator: ",").map({ $0.trimmingWhitespace() }) where !entry.isEmpty {
            guard let block = CIDRBlock(entry) else {
                return .failure(TrustedProxiesError(reason: "\(entry) is not an IP address or CIDR block; expected e.g. 10.0.0.0/8,127.0.0.1,fd00::/8"))
            }
            blocks.append(block)
        }
        return .success(TrustedProxies(blocks: blocks))
    }

    var isEmpty: Bool { blocks.isEmpty }

    func trusts(_ address: IPAddress) -> Bool {
        blocks.contains { $0.contains(address) }
    }
}

public struct TrustedProxiesError: Error, Equatable {
    public let reason: String
}
