/// Size limits the server enforces on each request; over a limit the client
/// gets the matching status (414, 431, 413) and the connection is closed.
public struct HTTPLimits: Sendable {
    /// Request line (`GET /target HTTP/1.1`) → 414.
    public var maxRequestLineBytes = 8 * 1024
    /// All header fields together → 431.
    public var maxHeaderBytes = 32 * 1024
    /// Number of header fields → 431.
    public var maxHeaderFields = 100
    /// Request body, declared or chunked → 413.
    public var maxBodyBytes = 1 << 20
    /// Open connections; beyond it new connections get a 503 and are closed.
    public var maxConnections = 16_384
    /// Bytes a streamed response may have queued for a slow reader before the
    /// connection is dropped (slow-client policy).
    public var maxStreamBufferBytes = 1 << 20
    /// Parsed requests queued behind the one being answered before the server
    /// stops reading from a pipelining client.
    public var maxPipelinedRequests = 32

    public init() {}
}
