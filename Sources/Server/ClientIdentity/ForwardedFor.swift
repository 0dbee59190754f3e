/// The hops a request passed through, as proxies record them, left (the first client) to right
/// (the proxy nearest this server): `X-Forwarded-For: a, b` or RFC 7239's
/// `Forwarded: for=a;proto=https, for="[2001:db8::1]:4711"`. Read right to left, one hop at a
/// time, since only the right-most few are ever believed; each hop is an address, or nil where
/// the proxy wrote something else (`unknown`, an obfuscated `_name`).
enum ForwardedFor {
    /// Calls `visit` with each hop of the `X-Forwarded-For` fields, right-most first, until it returns false.
    /// Scanned as bytes from the end: split into `Substring`s and trimmed, a one-hop field cost
    /// about 3,000 instructions (callgrind, `/health` behind a trusted proxy).
    static func reverseHops(xForwardedFor fields: [String], _ visit: (IPAddress?) -> Bool) {
        for var field in fields.reversed() {
            let goOn = field.withUTF8 { bytes -> Bool in
                var end = bytes.count
                while end > 0 {
                    var start = end
                    while start > 0, bytes[start - 1] != UInt8(ascii: ",") { start -= 1 }
                    var first = start, last = end
                    while first < last, bytes[first] == UInt8(ascii: " ") || bytes[first] == UInt8(ascii: "\t") { first += 1 }
                    while last > first, bytes[last - 1] == UInt8(ascii: " ") || bytes[last - 1] == UInt8(ascii: "\t") { last -= 1 }
                    if first < last, !visit(IPAddress.peer(UnsafeBufferPointer(rebasing: bytes[first..<last]))) { return false }
                    end = start - 1
                }
                return true
            }
            if !goOn { return }
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
