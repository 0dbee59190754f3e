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
        let isASCII = target.isASCII
        let parts = Substring(target).pieces(separatedBy: "?", isASCII: isASCII, maxSplits: 1, omittingEmptySubsequences: false)
        var query: [String: String] = [:]
        if parts.count == 2 {
            for pair in parts[1].pieces(separatedBy: "&", isASCII: isASCII) {
                let keyValue = pair.pieces(separatedBy: "=", isASCII: isASCII, maxSplits: 1, omittingEmptySubsequences: false)
                query[Self.decoded(keyValue[0])] = keyValue.count == 2 ? Self.decoded(keyValue[1]) : ""
            }
        }
        self.init(method: method, path: String(parts.first ?? "/"), query: query, host: host, headers: headers)
    }

    /// Percent-decoded strictly; text with a bad escape is kept as it was written.
    private static func decoded(_ text: Substring) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        return PercentEncoding.decodeStrictly(text) ?? String(text)
    }
}
