// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import NetCore

/// Who a request's client is, for per-client limits: its socket peer, unless that peer is a
/// trusted proxy; then the right-most hop of the proxies' record that is not itself a trusted
/// proxy (the address the outermost trusted proxy saw). Hops further left were written by the
/// client or by untrusted proxies and could be anything, so they are never used.
///
/// `X-Forwarded-For` is read when present, else `Forwarded`: HAProxy (`option forwardfor`),
/// nginx and most balancers append the former; a proxy that writes only `Forwarded` must drop
/// a client's own `X-Forwarded-For`, or the client could pick its identity.
///
///     peer 10.0.0.2 (trusted), X-Forwarded-For: 6.6.6.6, 203.0.113.9, 10.0.0.7   →  203.0.113.9
///     peer 198.51.100.4 (not trusted), X-Forwarded-For: 6.6.6.6               →  198.51.100.4
///
/// nil when the peer is no IP address (a Unix socket).
///
/// Asked of every request under `--client-request-rate`, so the fields are searched where they
/// lie, right to left, without a `String` or an array per request; `clientAddressByElements`
/// is the plain reference it agrees with (`ClientAddressTests`), reading the peer from its text.
@inline(__always)
func clientAddress(of request: Request, trusting proxies: TrustedProxies) -> IPAddress? {
    // The peer as accepted; its text only for a request made without a socket.
    guard let peer = request.peerAddress ?? IPAddress(peer: request.remoteAddress) else { return nil }
    guard !proxies.isEmpty, proxies.trusts(peer) else { return peer }
    var walk = HopWalk(peer: peer)
    let forwardedFor = request.headers.withFields { fields in
        var found = false
        for index in fields.indices.reversed() where HTTPHeaders.sameName(fields[index].name, "X-Forwarded-For") {
            found = true
            var value = fields[index].value
            guard value.withUTF8({ ForwardedFor.reverseHops(xForwardedFor: $0, &walk, trusting: proxies) }) else { break }
        }
        return found
    }
    if !forwardedFor { ForwardedFor.reverseHops(forwarded: request.headers.values(for: "Forwarded"), &walk, trusting: proxies) }
    return walk.client
}

/// `clientAddress` the plain way: the fields' values as an array, every hop parsed before the
/// walk starts.
func clientAddressByElements(of request: Request, trusting proxies: TrustedProxies) -> IPAddress? {
    guard let peer = IPAddress(peer: request.remoteAddress) else { return nil }
    guard !proxies.isEmpty, proxies.trusts(peer) else { return peer }
    var walk = HopWalk(peer: peer)
    let forwardedFor = request.headers.values(for: "X-Forwarded-For")
    if forwardedFor.isEmpty {
        ForwardedFor.reverseHops(forwarded: request.headers.values(for: "Forwarded"), &walk, trusting: proxies)
    } else {
        for hop in ForwardedFor.elements(xForwardedFor: forwardedFor) {
            if !walk.visit(hop, trusting: proxies) { break }
        }
    }
    return walk.client
}

/// `clientAddress` as text (the socket peer's own text when it is no IP address).
func clientAddressText(of request: Request, trusting proxies: TrustedProxies) -> String {
    clientAddress(of: request, trusting: proxies)?.description ?? request.remoteAddress
}
