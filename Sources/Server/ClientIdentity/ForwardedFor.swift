/// The hops a request passed through, as proxies record them, left (the first client) to
/// right (the proxy nearest this server): `X-Forwarded-For: a, b` or RFC 7239's
/// `Forwarded: for=a;proto=https, for="[2001:db8::1]:4711"`. Each hop is an address, or nil
/// where the proxy wrote something else (`unknown`, an obfuscated `_name`).
enum ForwardedFor {
    /// Every `X-Forwarded-For` field, in order.
    static func hops(xForwardedFor fields: [String]) -> [IPAddress?] {
        fields.flatMap { $0.split(separator: ",") }.map { hop in
            let hop = hop.trimmingWhitespace()
            return IPAddress(hop) ?? IPAddress(peer: hop)
        }
    }

    /// The `for=` parameter of every element of every `Forwarded` field, in order.
    static func hops(forwarded fields: [String]) -> [IPAddress?] {
        fields.flatMap { $0.split(separator: ",") }.compactMap { element -> IPAddress?? in
            for pair in element.split(separator: ";") {
                let pair = pair.trimmingWhitespace()
                guard let equals = pair.firstIndex(of: "="), pair[..<equals].lowercased() == "for" else { continue }
                var value = Substring(pair[pair.index(after: equals)...])
                if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = value.dropFirst().dropLast() }
                // `192.0.2.43:47011`, `"[2001:db8:cafe::17]:4711"`, or without a port.
                return .some(IPAddress(value) ?? IPAddress(peer: String(value)))
            }
            return nil
        }
    }
}
