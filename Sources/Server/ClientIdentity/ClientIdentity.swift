import HTTP

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
func clientAddress(of request: Request, trusting proxies: TrustedProxies) -> IPAddress? {
    guard let peer = IPAddress(peer: Substring(request.remoteAddress)) else { return nil }
    guard !proxies.isEmpty, proxies.trusts(peer) else { return peer }
    var client = peer
    let visit: (IPAddress?) -> Bool = { hop in
        // An unreadable hop ends the trusted part of the chain: the last address vouched for stands.
        guard let hop else { return false }
        client = hop
        return proxies.trusts(hop)
    }
    let forwardedFor = request.headers.values(for: "X-Forwarded-For")
    if forwardedFor.isEmpty {
        ForwardedFor.reverseHops(forwarded: request.headers.values(for: "Forwarded"), visit)
    } else {
        ForwardedFor.reverseHops(xForwardedFor: forwardedFor, visit)
    }
    return client
}

/// `clientAddress` as text (the socket peer's own text when it is no IP address).
func clientIdentity(of request: Request, trusting proxies: TrustedProxies) -> String {
    clientAddress(of: request, trusting: proxies)?.description ?? request.remoteAddress
}
