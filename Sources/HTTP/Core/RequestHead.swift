/// The request line and header fields of a request, with the framing decided
/// from them.
public struct RequestHead: Sendable {
    public var method: HTTPMethod
    public var target: String
    public var version: HTTPVersion
    public var headers: HTTPHeaders
    /// Declared body length; nil for chunked or no body.
    public var contentLength: Int?
    public var isChunked: Bool
    /// The client waits for `100 Continue` before sending its body.
    public var expectsContinue: Bool

    /// The first `X-Request-ID` field, noted by the parser so the server need not look it up.
    var requestIDField: String?
    /// The first `User-Agent` field, noted by the parser for the access log.
    var userAgentField: String?
    /// What the `Connection` fields said, noted by the parser: searching the fields for it
    /// cost about 2,000 instructions per request (callgrind, demo upstream).
    var connectionOptions = ConnectionOptions()
    /// The target is a plain path (`/…` without `?` or `%`), noted by the parser as it checked
    /// the target's bytes: then it is its own decoded path, with no query.
    var targetIsPath = false
    /// For a target `/path?query` whose path has no `%`: the offset of its first `?`, so the
    /// path is the target up to it, with no second scan and no decoding; nil otherwise.
    var plainPathQueryMark: Int?

    public var hasBody: Bool { isChunked || (contentLength ?? 0) > 0 }

    /// `Request.wantsKeepAlive` from what the parser noted: HTTP/1.1 unless `Connection: close`,
    /// HTTP/1.0 only with `Connection: keep-alive`.
    var wantsKeepAlive: Bool {
        if version.major == 1 && version.minor == 0 { return connectionOptions.keepAlive }
        return !connectionOptions.close
    }
}
