import NetCore

/// A request to the demo upstream, independent of any transport.
///
/// It keeps the target as sent and reads its parts when asked: 30 of the 31 requests of a
/// `/users` call are avatars (`/u/3?v=4`), whose query the demo never reads, and splitting
/// every target into a path and a dictionary up front was 6,400 instructions a request.
public struct DemoRequest: Sendable, Equatable {
    public let method: String
    /// The origin-form request target as sent (`/users?since=3&per_page=2`).
    public let target: String
    /// The `Host` the client used; absolute URLs in answers (avatar_url, Link) point back to it.
    public let host: String
    /// The `If-None-Match` field: the one request header the demo reads.
    public let ifNoneMatch: String?
    /// Where the query starts (after the `?`), nil without one.
    private let queryStart: String.Index?

    public init(method: String = "GET", target: String, host: String = "127.0.0.1", ifNoneMatch: String? = nil) {
        self.method = method
        self.target = target
        self.host = host
        self.ifNoneMatch = ifNoneMatch
        // Outside ASCII a `?` followed by a combining mark is one character with it, and no separator.
        let mark = Self.isASCII(target) ? target.utf8.firstIndex(of: UInt8(ascii: "?")) : target.firstIndex(of: "?")
        queryStart = mark.map { target.utf8.index(after: $0) }
    }

    /// The same from a transport's header fields, with `If-None-Match` looked up by any case.
    public init(method: String = "GET", target: String, host: String = "127.0.0.1", headers: [String: String]) {
        let condition = headers.first { $0.key.lowercased() == "if-none-match" }?.value
        self.init(method: method, target: target, host: host, ifNoneMatch: condition)
    }

    /// The target before its query (`/users`), as sent: not percent-decoded.
    var pathText: Substring {
        guard let queryStart else { return target[...] }
        return target[..<target.utf8.index(before: queryStart)]
    }

    public var path: String { String(pathText) }

    /// The query's `name=value` pairs, each percent-decoded strictly; the last of a repeated
    /// name wins, and a name without `=` has the empty value.
    public var query: [String: String] {
        guard let queryStart else { return [:] }
        let text = target[queryStart...]
        let isASCII = Self.isASCII(target)
        var query: [String: String] = [:]
        for pair in text.pieces(separatedBy: "&", isASCII: isASCII) {
            let keyValue = pair.pieces(separatedBy: "=", isASCII: isASCII, maxSplits: 1, omittingEmptySubsequences: false)
            query[Self.decoded(keyValue[0])] = keyValue.count == 2 ? Self.decoded(keyValue[1]) : ""
        }
        return query
    }

    public static func == (lhs: DemoRequest, rhs: DemoRequest) -> Bool {
        lhs.method == rhs.method && lhs.target == rhs.target && lhs.host == rhs.host && lhs.ifNoneMatch == rhs.ifNoneMatch
    }

    /// Whether every byte is ASCII, where splitting bytes and splitting characters agree.
    static func isASCII(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in bytes.allSatisfy { $0 < 0x80 } }
    }

    /// Percent-decoded strictly; text with a bad escape is kept as it was written.
    private static func decoded(_ text: Substring) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        return PercentEncoding.decodeStrictly(text) ?? String(text)
    }
}
