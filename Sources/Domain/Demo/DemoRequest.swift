import NetCore

/// A request to the demo upstream, independent of any transport.
public struct DemoRequest: Sendable, Equatable {
    public let method: String
    public let path: String
    public let query: [String: String]
    /// The `Host` the client used; absolute URLs in answers (avatar_url, Link) point back to it.
    public let host: String
    /// Request headers by lower-cased name (`if-none-match` is the one the demo reads).
    public let headers: [String: String]

    public init(method: String = "GET", path: String, query: [String: String] = [:], host: String = "127.0.0.1", headers: [String: String] = [:]) {
        self.method = method
        self.path = path
        self.query = query
        self.host = host
        self.headers = headers.isEmpty ? [:] : Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// Splits an origin-form request target (`/users?since=3&per_page=2`).
    public init(method: String = "GET", target: String, host: String = "127.0.0.1", headers: [String: String] = [:]) {
        let (path, query) = target.utf8.allSatisfy { $0 < 0x80 } ? Self.split(asciiTarget: target) : Self.split(target: target)
        self.init(method: method, path: path, query: query, host: host, headers: headers)
    }

    /// The split over bytes: a target as clients send it, ASCII only, is split the same
    /// either way, at about a third of the cost of walking it by `Character`.
    private static func split(asciiTarget target: String) -> (path: String, query: [String: String]) {
        guard let question = target.utf8.firstIndex(of: UInt8(ascii: "?")) else { return (target, [:]) }
        var query: [String: String] = [:]
        for pair in target.utf8[target.utf8.index(after: question)...].split(separator: UInt8(ascii: "&")) {
            let text = Substring(pair)
            guard let equals = pair.firstIndex(of: UInt8(ascii: "=")) else {
                query[decoded(text)] = ""
                continue
            }
            query[decoded(text[..<equals])] = decoded(text[text.index(after: equals)...])
        }
        return (String(target[..<question]), query)
    }

    /// The split by `Character`, for a target with other than ASCII in it: a `?`, `&` or `=`
    /// followed by a combining mark is a different character, and no separator.
    private static func split(target: String) -> (path: String, query: [String: String]) {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var query: [String: String] = [:]
        if parts.count == 2 {
            for pair in parts[1].split(separator: "&") {
                let keyValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                query[decoded(keyValue[0])] = keyValue.count == 2 ? decoded(keyValue[1]) : ""
            }
        }
        return (String(parts.first ?? "/"), query)
    }

    /// Percent-decoded strictly; text with a bad escape is kept as it was written.
    private static func decoded(_ text: Substring) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        return PercentEncoding.decodeStrictly(text) ?? String(text)
    }
}
