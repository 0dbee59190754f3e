import NetCore

/// A parsed HTTP request as handlers see it.
public struct Request: Sendable {
    public var method: HTTPMethod
    /// The request target exactly as sent, e.g. `/users?since=5`.
    public var target: String
    /// The percent-decoded path component of the target, e.g. `/users`.
    public var path: String
    /// The target's query, percent-decoded, e.g. `since=5`.
    ///
    /// Parsed when read, not when the request arrives: most routes never read it, and parsing
    /// `?s=40` on every demo-upstream avatar request cost about 4,000 instructions (callgrind).
    /// A handler that reads it several times may keep the value.
    public var query: QueryItems {
        get { parsedQuery ?? QueryItems(parsing: queryText) }
        set { parsedQuery = newValue }
    }
    /// The target's raw query text, after the `?` (empty without one).
    private var queryText: Substring
    /// A query set by assignment, which then replaces `queryText`'s.
    private var parsedQuery: QueryItems?
    public var version: HTTPVersion
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// Values captured by `{name}` segments of the matched route.
    public var pathParameters: [String: String]
    /// The matched route's pattern, e.g. `/users/{login}`; nil when no route matched.
    public var routePattern: String?
    /// Unique per request within this process; echoed as `X-Request-ID`.
    public var id: String
    /// The peer's address, e.g. `127.0.0.1:53122` or `[::1]:53122`.
    public var remoteAddress: String
    /// Runs timed work on the event loop that serves this request's connection, so a
    /// timer-driven response (`/ticks`) is written with no thread hop; nil outside a server.
    public var loopScheduler: EventLoopScheduler?

    public init(
        method: HTTPMethod,
        target: String,
        version: HTTPVersion = .http1_1,
        headers: HTTPHeaders = HTTPHeaders(),
        body: [UInt8] = [],
        id: String = "",
        remoteAddress: String = ""
    ) {
        self.method = method
        self.target = target
        (path, queryText) = Request.split(target: target)
        parsedQuery = nil
        self.version = version
        self.headers = headers
        self.body = body
        self.pathParameters = [:]
        self.routePattern = nil
        self.id = id
        self.remoteAddress = remoteAddress
        self.loopScheduler = nil
    }

    /// A request as the server parsed it; `head` already knows whether its target needs splitting.
    init(head: RequestHead, body: [UInt8], id: String, remoteAddress: String, loopScheduler: EventLoopScheduler?) {
        method = head.method
        target = head.target
        if head.targetIsPath {
            path = head.target
            queryText = ""
        } else if let queryMark = head.plainPathQueryMark {
            // `/path?query`, the path without escapes: the parser has found the `?` already.
            let utf8 = head.target.utf8
            let mark = utf8.index(utf8.startIndex, offsetBy: queryMark)
            path = String(head.target[..<mark])
            queryText = head.target[utf8.index(after: mark)...]
        } else {
            (path, queryText) = Request.split(target: head.target)
        }
        parsedQuery = nil
        version = head.version
        headers = head.headers
        self.body = body
        pathParameters = [:]
        routePattern = nil
        self.id = id
        self.remoteAddress = remoteAddress
        self.loopScheduler = loopScheduler
    }

    /// Whether the connection stays open after this request's response
    /// (HTTP/1.1 unless `Connection: close`; HTTP/1.0 only with `Connection: keep-alive`).
    public var wantsKeepAlive: Bool {
        if version.major == 1 && version.minor == 0 {
            return headers.containsToken("keep-alive", in: "Connection")
        }
        return !headers.containsToken("close", in: "Connection")
    }

    /// The body as UTF-8 text.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// The decoded path and the raw query text (after `?`) of a request target.
    static func split(target: String) -> (path: String, query: Substring) {
        let utf8 = target.utf8
        // The common targets, `/path` and `/path?query` without escapes in the path, need no
        // scheme check and no decoding: the path is the target up to its `?`.
        if utf8.first == UInt8(ascii: "/") {
            let stop = utf8.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "%") }
            guard let stop else { return (target, "") }
            if utf8[stop] == UInt8(ascii: "?") {
                return (String(target[..<stop]), target[utf8.index(after: stop)...])
            }
        }
        var pathPart = Substring(target)
        var query: Substring = ""
        if let q = utf8.firstIndex(of: UInt8(ascii: "?")) {
            pathPart = target[..<q]
            query = target[utf8.index(after: q)...]
        }
        // Absolute-form targets (`http://host/path`) keep only their path.
        if pathPart.hasPrefix("http://") || pathPart.hasPrefix("https://") {
            let afterScheme = pathPart[pathPart.index(pathPart.firstIndex(of: ":")!, offsetBy: 3)...]
            pathPart = afterScheme.firstIndex(of: "/").map { afterScheme[$0...] } ?? "/"
        }
        return (PercentEncoding.decode(pathPart, plusAsSpace: false), query)
    }
}
