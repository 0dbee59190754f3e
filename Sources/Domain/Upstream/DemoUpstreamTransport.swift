import Streams

/// Talks to a `DemoUpstream` object directly, without sockets: for virtual-time tests of
/// the client and pipelines. A cut-short answer becomes the connection error a socket
/// client would report.
public struct DemoUpstreamTransport: UpstreamTransport {
    public let upstream: DemoUpstream

    public init(upstream: DemoUpstream) {
        self.upstream = upstream
    }

    public func send(_ request: UpstreamRequest) -> DataStream<UpstreamResponse> {
        let demoRequest = DemoRequest(method: request.method, target: request.target, host: request.hostHeader)
        let answer = upstream.respond(to: demoRequest)
        return DataStream { watcher in
            answer.watch { event in
                switch event {
                case .data(let response):
                    if response.truncatedAfter != nil {
                        watcher.error(UpstreamError.connection("connection closed mid-body"))
                    } else {
                        watcher.data(UpstreamResponse(status: response.status, headers: response.headers, body: response.body))
                    }
                case .error(let error): watcher.error(error)
                case .end: watcher.end()
                }
            }
        }
    }
}
