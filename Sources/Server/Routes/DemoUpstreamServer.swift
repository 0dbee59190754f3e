import StreamServiceConcurrency
import Dispatch
import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTP
import Streams

/// Puts the demo upstream on two sockets, as GitHub serves its API and its avatars
/// (`avatars.githubusercontent.com`) from different origins: the API on `port`, the avatars
/// on a second, ephemeral port. In-process for `serve` without `--upstream`, standalone for
/// `stream-service demo-upstream`.
public final class DemoUpstreamServer: Sendable {
    public let upstream: DemoUpstream
    private let server: HTTPServer
    private let avatarServer: HTTPServer
    private let host: String

    public init(configuration: DemoUpstream.Configuration, host: String = "127.0.0.1", port: Int = 0) {
        let upstream = DemoUpstream(configuration: configuration)
        self.upstream = upstream
        self.host = host
        var serverConfiguration = HTTPServerConfiguration(host: host, port: port)
        serverConfiguration.serverName = "StreamService-demo-upstream"
        // Both origins compress with the same settings, so they share their stored encodings.
        let encodings = DemoGzipVariants(compressionMinimumBytes: serverConfiguration.compressionMinimumBytes)
        server = HTTPServer(configuration: serverConfiguration, handler: Self.handler(upstream, encodings, host: host, port: port))
        var avatarConfiguration = HTTPServerConfiguration(host: host, port: 0)
        avatarConfiguration.serverName = "StreamService-demo-avatars"
        avatarServer = HTTPServer(configuration: avatarConfiguration, handler: Self.handler(upstream, encodings, host: host, port: 0))
    }

    static func handler(
        _ upstream: DemoUpstream, _ encodings: DemoGzipVariants, host: String, port: Int
    ) -> @Sendable (Request) -> DataStream<Response> {
        let listening = "\(host):\(port)"
        return { request in
            let demoRequest = DemoRequest(
                method: request.method.rawValue, target: request.target, host: request.headers["Host"] ?? listening,
                ifNoneMatch: request.headers["If-None-Match"])
            return upstream.httpResponse(to: demoRequest, acceptEncoding: request.headers["Accept-Encoding"], encodings: encodings)
        }
    }

    /// Binds the avatar origin, then the API; returns the API's bound port.
    @discardableResult
    public func start() throws -> Int {
        let avatarPort = try avatarServer.start()
        upstream.serveAvatars(onPort: avatarPort)
        do {
            return try server.start()
        } catch {
            stop()
            throw error
        }
    }

    public var port: Int? { server.port }
    /// The avatar origin's port, once started.
    public var avatarPort: Int? { avatarServer.port }

    /// `http://127.0.0.1:PORT`, once started.
    public var baseURL: URL? { port.flatMap { URL(string: "http://127.0.0.1:\($0)") } }

    public func shutdown(deadline: Duration = .seconds(2)) async {
        async let api: Void = server.shutdown(deadline: deadline)
        async let avatars: Void = avatarServer.shutdown(deadline: deadline)
        _ = await (api, avatars)
    }

    /// Blocks until stopped; for callers outside async code.
    public func stop(deadline: Duration = .seconds(2)) {
        let done = DispatchSemaphore(value: 0)
        server.shutdown(deadline: deadline) { done.signal() }
        avatarServer.shutdown(deadline: deadline) { done.signal() }
        for _ in 0..<2 { _ = done.wait(timeout: .now() + .seconds(Int(deadline.components.seconds) + 3)) }
    }
}

extension DemoUpstreamServer {
    /// Connections currently open to the demo upstream (tests watch cancellation with it).
    public var openConnections: Int { server.openConnections + avatarServer.openConnections }
}
