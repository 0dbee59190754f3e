import NetCore

/// A parsed HTTP request as handlers see it.
public struct Request: Sendable {
    public var method: HTTPMethod
    /// The request target exactly as sent, e.g. `/users?since=5`.
    public var target: String
    /// The percent-decoded path component of the target, e.g. `/users`.
    public var path: String
    public var query: QueryItems
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
        let (path, query) = Request.split(target: target)
        self.path = path
        self.query = query
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
            query = QueryItems()
        } else {
            (path, query) = Request.split(target: head.target)
        }
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

    static func split(target: String) -> (String, QueryItems) {
        // The common target, `/path` without query or escapes, is its own path: no scan for
        // a scheme, no decoding, no new string.
        if target.utf8.first == UInt8(ascii: "/"),
           !target.utf8.contains(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "%") }) {
            return (target, QueryItems())
        }
        var pathPart = Substring(target)
        var query = QueryItems()
        if let q = target.firstIndex(of: "?") {
            pathPart = target[..<q]
            query = QueryItems(parsing: target[target.index(after: q)...])
        }
        // Absolute-form targets (`http://host/path`) keep only their path.
        if pathPart.hasPrefix("http://") || pathPart.hasPrefix("https://") {
            let afterScheme = pathPart[pathPart.index(pathPart.firstIndex(of: ":")!, offsetBy: 3)...]
            pathPart = afterScheme.firstIndex(of: "/").map { afterScheme[$0...] } ?? "/"
        }
        return (PercentEncoding.decode(pathPart, plusAsSpace: false), query)
    }
}
