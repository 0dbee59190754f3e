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
    /// Header names lower-cased; repeated fields joined with `, ` (RFC 9110 §5.3).
    init(_ response: HTTPClientResponse) {
        var headers: [String: String] = [:]
        for (name, value) in response.headers {
            let key = name.lowercased()
            headers[key] = headers[key].map { "\($0), \(value)" } ?? value
        }
        self.init(status: response.status.code, lowercasedHeaders: headers, body: response.body)
    }
}
