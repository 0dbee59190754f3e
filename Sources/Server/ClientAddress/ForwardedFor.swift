// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore

/// The hops a request passed through, as proxies record them, left (the first client) to right
/// (the proxy nearest this server): `X-Forwarded-For: a, b` or RFC 7239's
/// `Forwarded: for=a;proto=https, for="[2001:db8::1]:4711"`. Read right to left, one hop at a
/// time, since only the right-most few are ever believed; each hop is an address, or nil where
/// the proxy wrote something else (`unknown`, an obfuscated `_name`).
enum ForwardedFor {
    /// Gives `walk` the hops of one `X-Forwarded-For` field, right-most first, until it stops;
    /// false once it has. Scanned as bytes from the end, in place: split into `Substring`s and
    /// trimmed (`elements`, the reference), a one-hop field cost several times as much (the figure:
    /// Benchmarks/README.md).
    static func reverseHops(
        xForwardedFor bytes: UnsafeBufferPointer<UInt8>, _ walk: inout HopWalk, trusting proxies: borrowing TrustedProxies
    ) -> Bool {
        var end = bytes.count
        while end > 0 {
            var last = end
            while last > 0, isBlank(bytes[last - 1]) { last -= 1 }
            var first = last
            while first > 0, bytes[first - 1] != UInt8(ascii: ",") { first -= 1 }
            // The element's own start, before its blanks are skipped: the next element ends before its comma.
            end = first - 1
            while first < last, isBlank(bytes[first]) { first += 1 }
            if first < last, !walk.visit(IPAddress.peer(UnsafeBufferPointer(rebasing: bytes[first..<last])), trusting: proxies) { return false }
        }
        return true
    }

    /// The hops of `X-Forwarded-For` fields, right-most first, the plain way: each field's bytes
    /// split at every comma, each element's blanks cut off, empty ones left out. The reference
    /// `reverseHops` agrees with.
    static func elements(xForwardedFor fields: [String]) -> [IPAddress?] {
        fields.reversed().flatMap { field in
            Array(field.utf8).split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).reversed()
                .map { element -> [UInt8] in
                    var element = element
                    while let first = element.first, isBlank(first) { element.removeFirst() }
                    while let last = element.last, isBlank(last) { element.removeLast() }
                    return Array(element)
                }
                .filter { !$0.isEmpty }
                .map { element in element.withUnsafeBufferPointer { IPAddress.peer($0) } }
        }
    }

    /// Gives `walk` the `for=` of each element of the `Forwarded` fields, right-most first, until it stops.
    static func reverseHops(forwarded fields: [String], _ walk: inout HopWalk, trusting proxies: borrowing TrustedProxies) {
        for field in fields.reversed() {
            for element in field.split(separator: ",").reversed() {
                guard let value = forValue(element) else { continue }
                // `192.0.2.43:47011`, `"[2001:db8:cafe::17]:4711"`, or without a port.
                if !walk.visit(IPAddress(value) ?? IPAddress(peer: value), trusting: proxies) { return }
            }
        }
    }

    /// The `for=` parameter of one `Forwarded` element, unquoted; nil without one.
    static func forValue(_ element: Substring) -> Substring? {
        for pair in element.split(separator: ";") {
            let pair = pair.trimmingWhitespace()
            guard let equals = pair.firstIndex(of: "="), pair[..<equals].lowercased() == "for" else { continue }
            var value = Substring(pair[pair.index(after: equals)...])
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = value.dropFirst().dropLast() }
            return value
        }
        return nil
    }

    @inline(__always)
    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }
}

/// The client, worked out from the hops right to left: a hop a trusted proxy vouched for becomes
/// the client, and the walk goes on while that hop is itself a trusted proxy.
/// The proxies are lent to each step rather than kept: a walk holding them retained and released
/// their list on every request.
struct HopWalk {
    /// The socket peer at first, then each hop vouched for.
    private(set) var client: IPAddress

    init(peer: IPAddress) {
        client = peer
    }

    /// Takes the next hop to the left; false once the walk is over.
    mutating func visit(_ hop: IPAddress?, trusting proxies: borrowing TrustedProxies) -> Bool {
        // An unreadable hop ends the trusted part of the chain: the last address vouched for stands.
        guard let hop else { return false }
        client = hop
        return proxies.trusts(hop)
    }
}
