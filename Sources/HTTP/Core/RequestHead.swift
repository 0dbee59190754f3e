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

    public var hasBody: Bool { isChunked || (contentLength ?? 0) > 0 }
}
