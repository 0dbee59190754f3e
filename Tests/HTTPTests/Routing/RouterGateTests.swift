// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Streams
import XCTest
@testable import HTTP
import HTTPTestSupport

/// `RouterGate`: a synchronous check before the middlewares and the handler, whose refusal goes
/// out through the middlewares.
final class RouterGateTests: XCTestCase {
    /// Refuses requests that carry `X-Refuse`, and names the route it saw.
    private final class Refuser: RouterGate {
        func refusal(for request: Request) -> Response? {
            guard request.headers.contains("X-Refuse") else { return nil }
            return .text("refused on \(request.routePattern ?? "no route")", status: .tooManyRequests)
        }
    }

    /// Marks every response it passes on.
    private struct Marker: RouterMiddleware {
        func handle(_ request: Request, next: @escaping RequestHandler) -> DataStream<Response> {
            next(request).map { response in
                var response = response
                response.headers.add(name: "X-Marked", value: "yes")
                return response
            }
        }
    }

    private func server() throws -> TestServer {
        var router = Router()
        router.add(middleware: Marker())
        router.add(gate: Refuser())
        router.get("/hello") { _ in .just(.text("hello")) }
        return try TestServer(router: router)
    }

    private func get(_ path: String, refused: Bool, from server: TestServer) throws -> RawHTTPClient.Response {
        let client = try server.client()
        try client.send("GET \(path) HTTP/1.1\r\nHost: x\r\n\(refused ? "X-Refuse: 1\r\n" : "")\r\n")
        return try client.readResponse()
    }

    func testARefusalGoesOutThroughTheMiddlewares() throws {
        let refused = try get("/hello", refused: true, from: try server())
        XCTAssertEqual(refused.status, 429)
        XCTAssertEqual(refused.bodyText, "refused on /hello", "the gate sees the resolved route")
        XCTAssertEqual(refused.header("X-Marked"), "yes")
    }

    func testARequestTheGateLetsByReachesItsHandler() throws {
        let answered = try get("/hello", refused: false, from: try server())
        XCTAssertEqual(answered.status, 200)
        XCTAssertEqual(answered.bodyText, "hello")
        XCTAssertEqual(answered.header("X-Marked"), "yes")
    }

    func testAGateIsAskedAboutRequestsForUnknownPathsToo() throws {
        let server = try server()
        XCTAssertEqual(try get("/nowhere", refused: true, from: server).bodyText, "refused on no route")
        XCTAssertEqual(try get("/nowhere", refused: false, from: server).status, 404)
    }
}
