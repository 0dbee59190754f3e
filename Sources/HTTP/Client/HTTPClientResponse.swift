/// A complete answer received by `HTTPClient`: status, header fields as sent, and the
/// body with any gzip content coding already decoded.
public struct HTTPClientResponse: Sendable, Equatable {
    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: [UInt8]

    public init(status: HTTPStatus, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
