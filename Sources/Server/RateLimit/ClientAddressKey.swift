// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore

/// How the per-client limits tell addresses apart: an IPv4 client by its address, an IPv6 one by
/// its first `ipv6PrefixLength` bits (`--rate-limit-ipv6-prefix`, /64 by default). A subscriber is
/// handed at least a /64 and its hosts pick addresses in it freely, so keyed by the whole
/// address one /64 had as many budgets as it had addresses (issue 34).
struct ClientAddressKey: Sendable, Equatable {
    static let ipv6PrefixLengths = 1...128
    static let standard = ClientAddressKey(ipv6PrefixLength: 64)

    let ipv6PrefixLength: Int
    private let highMask: UInt64
    private let lowMask: UInt64

    init(ipv6PrefixLength: Int) {
        precondition(Self.ipv6PrefixLengths.contains(ipv6PrefixLength), "an IPv6 prefix is 1 to 128 bits")
        self.ipv6PrefixLength = ipv6PrefixLength
        highMask = ipv6PrefixLength >= 64 ? .max : .max << UInt64(64 - ipv6PrefixLength)
        lowMask = ipv6PrefixLength <= 64 ? 0 : .max << UInt64(128 - ipv6PrefixLength)
    }

    /// The address the limits count `address` under.
    @inline(__always)
    func key(_ address: IPAddress) -> IPAddress {
        address.isIPv4 ? address : IPAddress(high: address.high & highMask, low: address.low & lowMask)
    }

    /// `key(address)` as text for a budget key: `192.0.2.1`, `2001:db8:1:2::/64`.
    func text(_ address: IPAddress) -> String {
        address.isIPv4 || ipv6PrefixLength == 128 ? address.description : "\(key(address))/\(ipv6PrefixLength)"
    }
}
