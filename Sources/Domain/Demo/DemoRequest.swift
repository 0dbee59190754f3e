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
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// Splits an origin-form request target (`/users?since=3&per_page=2`).
    public init(method: String = "GET", target: String, host: String = "127.0.0.1", headers: [String: String] = [:]) {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var query: [String: String] = [:]
        if parts.count == 2 {
            for pair in parts[1].split(separator: "&") {
                let keyValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let key = PercentEncoding.decodeStrictly(keyValue[0]) ?? String(keyValue[0])
                let value = keyValue.count == 2 ? (PercentEncoding.decodeStrictly(keyValue[1]) ?? String(keyValue[1])) : ""
                query[key] = value
            }
        }
        self.init(method: method, path: String(parts.first ?? "/"), query: query, host: host, headers: headers)
    }
}
