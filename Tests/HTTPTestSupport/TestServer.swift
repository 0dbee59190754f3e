// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import NetCore
import Streams
import HTTP

/// A server on 127.0.0.1 with an ephemeral port, shut down when the test ends.
public final class TestServer {
    public let server: HTTPServer
    public let port: Int

    public init(
        router: Router,
        observer: HTTPServerObserver = HTTPServerObserver(),
        metrics: HTTPMetrics = HTTPMetrics(),
        configure: (inout HTTPServerConfiguration) -> Void = { _ in }
    ) throws {
        var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0)
        configuration.loopCount = 2
        configure(&configuration)
        server = HTTPServer(configuration: configuration, router: router, observer: observer, metrics: metrics)
        port = try server.start()
    }

    public func client() throws -> RawHTTPClient {
        try RawHTTPClient(port: port)
    }

    public func stop() {
        let done = DispatchSemaphore(value: 0)
        server.shutdown(deadline: .seconds(2)) { done.signal() }
        _ = done.wait(timeout: .now() + 5)
    }

    deinit { stop() }

    /// Routes most tests use: a greeting, an echo of the body, and a path parameter.
    public static var standardRouter: Router {
        var router = Router()
        router.get("/hello") { _ in .just(.text("hello")) }
        router.post("/echo") { request in .just(Response(status: .ok, headers: ["Content-Type": "application/octet-stream"], body: .bytes(request.body))) }
        router.get("/users/{login}/avatar") { request in .just(.text("avatar of \(request.pathParameters["login"] ?? "?")")) }
        return router
    }
}
