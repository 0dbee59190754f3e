// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import StreamServiceConcurrency
import Streams
import XCTest
@testable import HTTP
import HTTPTestSupport

/// `HTTPClient(connectTo:)`: a name in URLs whose connections go to another address.
final class ConnectTargetTests: XCTestCase {
    /// One answer from `client` for `url`, or its error.
    private func answer(_ url: String, via client: HTTPClient) throws -> HTTPClientResponse {
        let outcome = Locked<Result<HTTPClientResponse, any Error>?>(nil)
        let done = expectation(description: "answer")
        let subscription = client.send(HTTPClientRequest(url: URL(string: url)!)).watch(
            data: { response in outcome.withLock { $0 = .success(response) } },
            error: { error in outcome.withLock { $0 = .failure(error) }; done.fulfill() },
            end: { done.fulfill() })
        wait(for: [done], timeout: 10)
        subscription.dispose()
        return try XCTUnwrap(outcome.withLock { $0 }).get()
    }

    private func hostEchoServer() throws -> TestServer {
        var router = Router()
        router.get("/host") { request in .just(Response.text(request.headers["Host"] ?? "none")) }
        return try TestServer(router: router)
    }

    func testANamedOriginConnectsToItsTargetAndKeepsTheNameInHost() throws {
        let server = try hostEchoServer()
        let client = HTTPClient(connectTo: [ConnectTarget(name: "api.demo.invalid", host: "127.0.0.1", port: server.port)])
        let response = try answer("http://api.demo.invalid/host", via: client)
        XCTAssertEqual(response.status.code, 200)
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "api.demo.invalid")
    }

    func testAnOriginWithoutATargetConnectsToItsOwnAddress() throws {
        let server = try hostEchoServer()
        let client = HTTPClient(connectTo: [ConnectTarget(name: "api.demo.invalid", host: "127.0.0.1", port: 1)])
        let response = try answer("http://127.0.0.1:\(server.port)/host", via: client)
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "127.0.0.1:\(server.port)")
    }

    func testTheTargetIsChosenByNameAndPort() {
        let targets = [ConnectTarget(name: "a.invalid", namePort: 8080, host: "127.0.0.1", port: 9)]
        XCTAssertEqual(targets.address(host: "a.invalid", port: 8080).port, 9)
        XCTAssertEqual(targets.address(host: "a.invalid", port: 80).port, 80, "another port of the same name is not redirected")
        XCTAssertEqual(targets.address(host: "b.invalid", port: 8080).host, "b.invalid")
    }
}
