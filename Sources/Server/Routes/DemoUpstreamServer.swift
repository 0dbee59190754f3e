import ConcurrencyHelpers
import Dispatch
import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTP
import Streams

/// Puts the demo upstream on a socket: in-process on its own loopback port for
/// `serve` without `--upstream`, and standalone for `stream-service demo-upstream`.
public final class DemoUpstreamServer: Sendable {
    public let upstream: DemoUpstream
    private let server: HTTPServer

    public init(configuration: DemoUpstream.Configuration, host: String = "127.0.0.1", port: Int = 0) {
        let upstream = DemoUpstream(configuration: configuration)
        self.upstream = upstream
        var serverConfiguration = HTTPServerConfiguration(host: host, port: port)
        serverConfiguration.serverName = "StreamService-demo-upstream"
        server = HTTPServer(configuration: serverConfiguration) { request in
            let demoRequest = DemoRequest(
                method: request.method.rawValue, target: request.target, host: request.headers["Host"] ?? "\(host):\(port)")
            return upstream.respond(to: demoRequest).map(Self.response(for:))
        }
    }

    /// Binds and serves; returns the bound port.
    @discardableResult
    public func start() throws -> Int { try server.start() }

    public var port: Int? { server.port }

    /// `http://127.0.0.1:PORT`, once started.
    public var baseURL: URL? { port.flatMap { URL(string: "http://127.0.0.1:\($0)") } }

    public func shutdown(deadline: Duration = .seconds(2)) async {
        await server.shutdown(deadline: deadline)
    }

    /// Blocks until stopped; for callers outside async code.
    public func stop(deadline: Duration = .seconds(2)) {
        let done = DispatchSemaphore(value: 0)
        server.shutdown(deadline: deadline) { done.signal() }
        _ = done.wait(timeout: .now() + .seconds(Int(deadline.components.seconds) + 3))
    }

    static func response(for answer: DemoResponse) -> Response {
        var headers = HTTPHeaders()
        for (name, value) in answer.headers.sorted(by: { $0.key < $1.key }) { headers.add(name: name, value: value) }
        guard let cut = answer.truncatedAfter else {
            return Response(status: HTTPStatus(code: answer.status), headers: headers, body: .bytes(answer.body))
        }
        // Half a body, then a failure: the engine closes without the last chunk,
        // which the client sees as a connection cut mid-response.
        let partial = Array(answer.body.prefix(cut))
        let body = DataStream<[UInt8]> { watcher in
            watcher.data(partial)
            watcher.error(DemoCut())
            return Disposable()
        }
        return Response(status: HTTPStatus(code: answer.status), headers: headers, body: .stream(body))
    }

    struct DemoCut: Error {}
}

extension DemoUpstreamServer {
    /// Connections currently open to the demo upstream (tests watch cancellation with it).
    public var openConnections: Int { server.openConnections }
}
