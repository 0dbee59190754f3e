/// An address block such as `10.0.0.0/8` or `fd00::/8`; a bare address is its own /32 or /128.
struct CIDRBlock: Hashable, Sendable, CustomStringConvertible {
    let network: IPAddress
    /// Leading bits that must match, over the 16-byte form (an IPv4 /8 is 96 + 8).
    let prefixBits: Int

    init?(_ text: some StringProtocol) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPAddress(parts[0]) else { return nil }
        let width = address.isIPv4 ? 32 : 128
        var bits = width
        if parts.count == 2 {
            guard let given = Int(parts[1]), (0...width).contains(given) else { return nil }
            bits = given
        }
        network = address
        prefixBits = bits + (address.isIPv4 ? 96 : 0)
    }

    func contains(_ address: IPAddress) -> Bool {
        var remaining = prefixBits
        for index in 0..<16 where remaining > 0 {
            let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
            if address.bytes[index] & mask != network.bytes[index] & mask { return false }
            remaining -= 8
        }
        return true
    }

    var description: String { "\(network)/\(network.isIPv4 ? prefixBits - 96 : prefixBits)" }
}
