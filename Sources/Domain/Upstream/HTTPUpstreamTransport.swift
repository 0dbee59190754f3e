import HTTP
import Streams

/// The upstream transport over the HTTP library's client: requests and answers in
/// the upstream's terms, client failures as `UpstreamError`s.
public final class HTTPUpstreamTransport: UpstreamTransport {
    public let client: HTTPClient

    public init(client: HTTPClient = HTTPClient()) {
        self.client = client
    }

    /// Idle keep-alive connections the client holds.
    public var idleConnections: Int { client.idleConnections }

    public func send(_ request: UpstreamRequest) -> DataStream<UpstreamResponse> {
        client.send(request.clientRequest)
            .map { UpstreamResponse($0) }
            .recover { error in DataStream<UpstreamResponse>.just(error: UpstreamError(classifying: error)) }
    }
}

extension UpstreamRequest {
    /// The same request for `HTTPClient`.
    var clientRequest: HTTPClientRequest {
        HTTPClientRequest(method: HTTPMethod(method), url: url, headers: HTTPHeaders(headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
    }
}

extension UpstreamResponse {
    /// The client's answer, its fields kept as received.
    init(_ response: HTTPClientResponse) {
        self.init(status: response.status.code, received: response.headers, body: response.body)
    }
}
