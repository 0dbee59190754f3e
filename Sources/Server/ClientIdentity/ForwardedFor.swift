/// The hops a request passed through, as proxies record them, left (the first client) to right
/// (the proxy nearest this server): `X-Forwarded-For: a, b` or RFC 7239's
/// `Forwarded: for=a;proto=https, for="[2001:db8::1]:4711"`. Read right to left, one hop at a
/// time, since only the right-most few are ever believed; each hop is an address, or nil where
/// the proxy wrote something else (`unknown`, an obfuscated `_name`).
enum ForwardedFor {
    /// Calls `visit` with each hop of the `X-Forwarded-For` fields, right-most first, until it returns false.
    static func reverseHops(xForwardedFor fields: [String], _ visit: (IPAddress?) -> Bool) {
        for field in fields.reversed() {
            for element in field.split(separator: ",").reversed() {
                let hop = element.trimmingWhitespace()
                if !visit(IPAddress(Substring(hop)) ?? IPAddress(peer: Substring(hop))) { return }
            }
        }
    }

    /// Calls `visit` with the `for=` of each element of the `Forwarded` fields, right-most first, until it returns false.
    static func reverseHops(forwarded fields: [String], _ visit: (IPAddress?) -> Bool) {
        for field in fields.reversed() {
            for element in field.split(separator: ",").reversed() {
                guard let value = forValue(element) else { continue }
                // `192.0.2.43:47011`, `"[2001:db8:cafe::17]:4711"`, or without a port.
                if !visit(IPAddress(value) ?? IPAddress(peer: value)) { return }
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
}
