// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 or IPv6 address as 128 bits (IPv4 as `::ffff:a.b.c.d`, RFC 4291 §2.5.5.2), so one
/// prefix comparison serves both families and a v4 peer seen on a dual-stack socket matches a v4 CIDR.
///
/// Two integers rather than a byte array, and IPv4 read by hand rather than by `inet_pton` on a
/// new `String`: a per-client limit works its client out on every request, and the general path
/// (arrays, strings, `inet_ntop`) cost more than a small request's whole answer (figures in
/// Benchmarks/README.md's NetCore/Domain ledger).
package struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// The first and last eight bytes, big-endian.
    package let high: UInt64
    package let low: UInt64

    package static let v4Prefix: UInt64 = 0xFFFF_0000_0000

    @inlinable
    package init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// Parses `192.0.2.1`, `2001:db8::1`, `[2001:db8::1]`; nil for anything else (a host name included).
    package init?(_ text: Substring) {
        if let v4 = Self.ipv4(text.utf8) {
            self.init(high: 0, low: Self.v4Prefix | UInt64(v4))
            return
        }
        var text = text
        if text.hasPrefix("["), text.hasSuffix("]") { text = text.dropFirst().dropLast() }
        guard text.contains(":"), !text.contains("%") else { return nil }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, String(text), &v6) == 1 else { return nil }
        let (high, low) = withUnsafeBytes(of: v6) { bytes in
            (bytes.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }, bytes.suffix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        }
        self.init(high: high, low: low)
    }

    package init?(_ text: String) { self.init(Substring(text)) }

    /// A socket peer's address as `accept()` gave it, with no text in between: nil for a family
    /// other than IPv4 and IPv6 (a Unix socket). `IPAddress(peer: address.description)` is the
    /// plain twin (`ClientAddressTests` holds them equal): kept from `accept()`, a connection's
    /// peer is not read back from its text on every request.
    package init?(_ address: SocketAddress) {
        let parsed: IPAddress? = withUnsafeBytes(of: address.storage) { raw in
            switch address.family {
            case AF_INET:
                let v4 = UInt32(bigEndian: raw.load(as: sockaddr_in.self).sin_addr.s_addr)
                return IPAddress(high: 0, low: Self.v4Prefix | UInt64(v4))
            case AF_INET6:
                let v6 = raw.load(as: sockaddr_in6.self).sin6_addr
                return withUnsafeBytes(of: v6) { bytes in
                    IPAddress(high: UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self)),
                              low: UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
                }
            default:
                return nil
            }
        }
        guard let parsed else { return nil }
        self = parsed
    }

    /// The host of a socket peer as `Request.remoteAddress` spells it: `127.0.0.1:53122` or `[::1]:53122`.
    package init?(peer: Substring) {
        var peer = peer
        guard let address = peer.withUTF8({ Self.peer($0) }) else { return nil }
        self = address
    }

    package init?(peer: String) { self.init(peer: Substring(peer)) }

    /// `ip`, `ip:port` or `[ipv6]:port` as ASCII bytes. Read as bytes: `Character`-wise searching
    /// (`firstIndex(of: ":")` on a `Substring`) was most of this reading's cost. Inlinable, as
    /// `ipv4WithPort`: a per-client limit in another module reads a forwarded hop on every request.
    @inlinable
    package static func peer(_ bytes: UnsafeBufferPointer<UInt8>) -> IPAddress? {
        // Every IPv4 form (`a.b.c.d`, `a.b.c.d:port`) is the one pass's; what it refuses is IPv6 or nothing.
        if let v4 = ipv4WithPort(bytes) { return IPAddress(high: 0, low: v4Prefix | UInt64(v4)) }
        // IPv6, bracketed with a port or bare: the general parser.
        var text = Substring(String(decoding: bytes, as: UTF8.self))
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") { text = text[text.index(after: text.startIndex)..<close] }
        return IPAddress(text)
    }

    /// `a.b.c.d` alone or before `:port` (the port unread, as `peer` has it), in one pass: most
    /// forwarded hops. An octet at a time (up to three digits, then the dot): a byte at a time with
    /// counters took about half as much again. nil for anything else, which `peer` leaves to the
    /// general rule.
    @inlinable
    package static func ipv4WithPort(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32? {
        let count = bytes.count
        var value: UInt32 = 0, index = 0
        for octetIndex in 0..<4 {
            if octetIndex > 0 {
                guard index < count, bytes[index] == UInt8(ascii: ".") else { return nil }
                index += 1
            }
            guard index < count else { return nil }
            var octet = UInt32(bytes[index] &- UInt8(ascii: "0"))
            guard octet < 10 else { return nil }
            index += 1
            // Two more digits at most: a fourth is left for the dot check, which refuses it.
            for _ in 0..<2 {
                guard index < count else { break }
                let digit = UInt32(bytes[index] &- UInt8(ascii: "0"))
                guard digit < 10 else { break }
                octet = octet &* 10 &+ digit
                index += 1
            }
            guard octet <= 255 else { return nil }
            value = value << 8 | octet
        }
        guard index < count else { return value }
        guard bytes[index] == UInt8(ascii: ":") else { return nil }
        index += 1
        while index < count {
            if bytes[index] == UInt8(ascii: ":") { return nil }
            index += 1
        }
        return value
    }

    /// Dotted-quad IPv4, four decimal octets of at most three digits; nil for anything else.
    package static func ipv4(_ utf8: Substring.UTF8View) -> UInt32? {
        var utf8 = Substring(utf8)
        return utf8.withUTF8 { ipv4($0) }
    }

    package static func ipv4(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32? {
        var value: UInt32 = 0, octet: UInt32 = 0, digits = 0, dots = 0
        for byte in bytes {
            if byte == UInt8(ascii: ".") {
                guard digits > 0, dots < 3 else { return nil }
                value = value << 8 | octet
                octet = 0
                digits = 0
                dots += 1
            } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                octet = octet * 10 + UInt32(byte - UInt8(ascii: "0"))
                digits += 1
                guard digits <= 3, octet <= 255 else { return nil }
            } else {
                return nil
            }
        }
        guard dots == 3, digits > 0 else { return nil }
        return value << 8 | octet
    }

    package var isIPv4: Bool { high == 0 && low >> 32 == 0xFFFF }

    /// An IPv4 address (all of whose first half is zero) hashes its last eight bytes only: one
    /// round of the hasher less on every check of a per-client limit. Still one input per
    /// address: the two forms differ in length.
    package func hash(into hasher: inout Hasher) {
        if high != 0 { hasher.combine(high) }
        hasher.combine(low)
    }

    /// The canonical text: dotted quad for IPv4, RFC 5952 for IPv6.
    package var description: String {
        if isIPv4 {
            return "\(low >> 24 & 0xFF).\(low >> 16 & 0xFF).\(low >> 8 & 0xFF).\(low & 0xFF)"
        }
        var v6 = in6_addr()
        withUnsafeMutableBytes(of: &v6) { bytes in
            for index in 0..<8 {
                bytes[index] = UInt8(truncatingIfNeeded: high >> UInt64(56 - 8 * index))
                bytes[8 + index] = UInt8(truncatingIfNeeded: low >> UInt64(56 - 8 * index))
            }
        }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        inet_ntop(AF_INET6, &v6, &buffer, socklen_t(buffer.count))
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
