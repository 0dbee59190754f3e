import HTTP

/// Who a request's client is, for per-client limits and logs: its socket peer, unless that
/// peer is a trusted proxy; then the right-most hop of the proxies' record that is not itself a
/// trusted proxy (the address the outermost trusted proxy saw). Hops further left were written
/// by the client or by untrusted proxies and could be anything, so they are never used.
///
/// `X-Forwarded-For` is read when present, else `Forwarded`: HAProxy (`option forwardfor`),
/// nginx and most balancers append the former; a proxy that writes only `Forwarded` must drop
/// a client's own `X-Forwarded-For`, or the client could pick its identity.
///
///     peer 10.0.0.2 (trusted), X-Forwarded-For: 6.6.6.6, 203.0.113.9, 10.0.0.7   →  203.0.113.9
///     peer 198.51.100.4 (not trusted), X-Forwarded-For: 6.6.6.6               →  198.51.100.4
func clientIdentity(of request: Request, trusting proxies: TrustedProxies) -> String {
    guard let peer = IPAddress(peer: request.remoteAddress) else { return request.remoteAddress }
    guard !proxies.isEmpty, proxies.trusts(peer) else { return peer.description }
    let forwardedFor = request.headers.values(for: "X-Forwarded-For")
    let hops = forwardedFor.isEmpty
        ? ForwardedFor.hops(forwarded: request.headers.values(for: "Forwarded"))
        : ForwardedFor.hops(xForwardedFor: forwardedFor)
    var client = peer
    for hop in hops.reversed() {
        // An unreadable hop ends the trusted part of the chain: the last address vouched for stands.
        guard let hop else { break }
        client = hop
        if !proxies.trusts(hop) { break }
    }
    return client.description
}
