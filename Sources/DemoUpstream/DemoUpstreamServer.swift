// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Dispatch
import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTP
import CoreMetrics
import Streams
import Tracing

/// Puts the demo upstream on two sockets, as GitHub serves its API and its avatars
/// (`avatars.githubusercontent.com`) from different origins: the API on `port`, the avatars
/// on a second, ephemeral port. In-process for `serve` without `--upstream`, standalone for
/// `stream-service demo-upstream`.
///
/// It records no metrics: the service's `/metrics` counts the service (its `HTTPServer`s
/// would otherwise write `http_connections_open` and `http_requests_total` of the process).
public final class DemoUpstreamServer: Sendable {
    /// The fixed names a client in the same process addresses the embedded demo by
    /// (`HTTPClient(connectTo: connectTargets)`), so that no answer names an ephemeral port:
    /// two processes, or one restarted, answer `/users` byte for byte alike. `.invalid`
    /// (RFC 2606) never resolves, so the names reach nothing without the client's targets.
    public enum StableName {
        public static let api = "api.demo.invalid"
        public static let avatars = "avatars.demo.invalid"
    }

    public let upstream: DemoUpstream
    private let server: HTTPServer
    private let avatarServer: HTTPServer
    private let host: String
    private let stableNames: Bool

    /// - Parameter stableNames: answers name `StableName`'s origins instead of the host and
    ///   ports the client used (the embedded demo); without them (`demo-upstream`, reached by
    ///   its address) avatar URLs name the avatar socket's port.
    public init(configuration: DemoUpstream.Configuration, host: String = "127.0.0.1", port: Int = 0, stableNames: Bool = false) {
        let upstream = DemoUpstream(configuration: configuration)
        self.upstream = upstream
        self.host = host
        self.stableNames = stableNames
        if stableNames { upstream.serveAvatars(at: .named("http://\(StableName.avatars)")) }
        var serverConfiguration = HTTPServerConfiguration(host: host, port: port)
        serverConfiguration.serverName = "StreamService-demo-upstream"
        // The stand-in for GitHub, which reports to nobody's collector: no spans of its own, even
        // in the service's process (a /users trace would hold 31 more SERVER spans otherwise).
        serverConfiguration.tracer = NoOpTracer()
        // Both origins compress with the same settings, so they share their stored encodings.
        let encodings = DemoGzipVariants(compressionMinimumBytes: serverConfiguration.compressionMinimumBytes)
        server = Self.unmetered(serverConfiguration, Self.handler(upstream, encodings, host: host, port: port))
        var avatarConfiguration = HTTPServerConfiguration(host: host, port: 0)
        avatarConfiguration.serverName = "StreamService-demo-avatars"
        avatarConfiguration.tracer = NoOpTracer()
        avatarServer = Self.unmetered(avatarConfiguration, Self.handler(upstream, encodings, host: host, port: 0))
    }

    /// A server whose metrics go nowhere, whatever `MetricsSystem` the process bootstrapped.
    private static func unmetered(_ configuration: HTTPServerConfiguration, _ handler: @escaping RequestHandler) -> HTTPServer {
        HTTPServer(configuration: configuration, router: Router(handler: handler), metrics: HTTPMetrics(factory: NOOPMetricsHandler.instance))
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
        if !stableNames { upstream.serveAvatars(onPort: avatarPort) }
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

    /// The API's URL for a client of this process: `http://api.demo.invalid` with stable names, else `baseURL`.
    public var clientBaseURL: URL? {
        stableNames ? URL(string: "http://\(StableName.api)") : baseURL
    }

    /// Where a client connects for the stable names, once started; empty without them.
    public var connectTargets: [ConnectTarget] {
        guard stableNames, let port, let avatarPort else { return [] }
        return [
            ConnectTarget(name: StableName.api, host: host, port: port),
            ConnectTarget(name: StableName.avatars, host: host, port: avatarPort),
        ]
    }

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
