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
    /// The target is a plain path (`/…` without `?` or `%`), noted by the parser as it checked
    /// the target's bytes: then it is its own decoded path, with no query.
    var targetIsPath = false

    public var hasBody: Bool { isChunked || (contentLength ?? 0) > 0 }
}
