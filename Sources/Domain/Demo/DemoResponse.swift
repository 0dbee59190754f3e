/// The demo upstream's answer, independent of any transport.
public struct DemoResponse: Sendable, Equatable {
    public var status: Int
    /// Header names in their conventional case; `Content-Length` is left to the transport.
    public var headers: [String: String]
    public var body: [UInt8]
    /// When set, the transport announces the full length but sends only this many body
    /// bytes and then closes the connection: the "cut mid-response" failure.
    public var truncatedAfter: Int?

    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = [], truncatedAfter: Int? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.truncatedAfter = truncatedAfter
    }
}
