// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore

/// An address block such as `10.0.0.0/8` or `fd00::/8`; a bare address is its own /32 or /128.
struct CIDRBlock: Hashable, Sendable, CustomStringConvertible {
    let network: IPAddress
    /// Leading bits that must match, over the 128-bit form (an IPv4 /8 is 96 + 8).
    let prefixBits: Int
    private let highMask: UInt64
    private let lowMask: UInt64

    init?(_ text: some StringProtocol) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPAddress(Substring(parts[0])) else { return nil }
        let width = address.isIPv4 ? 32 : 128
        var bits = width
        if parts.count == 2 {
            guard let given = Int(parts[1]), (0...width).contains(given) else { return nil }
            bits = given
        }
        prefixBits = bits + (address.isIPv4 ? 96 : 0)
        highMask = prefixBits >= 64 ? .max : (prefixBits == 0 ? 0 : ~(UInt64.max >> UInt64(prefixBits)))
        lowMask = prefixBits <= 64 ? 0 : (prefixBits == 128 ? .max : ~(UInt64.max >> UInt64(prefixBits - 64)))
        network = IPAddress(high: address.high & highMask, low: address.low & lowMask)
    }

    func contains(_ address: IPAddress) -> Bool {
        address.high & highMask == network.high && address.low & lowMask == network.low
    }

    var description: String { "\(network)/\(network.isIPv4 ? prefixBits - 96 : prefixBits)" }
}
