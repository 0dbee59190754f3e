// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTestSupport
import ProcessTestSupport
import StreamServiceConcurrency
import Streams
import XCTest
import HTTP

/// A handler's unhandled error answers a generic 500 that names the request id, on both protocols;
/// the error's own words go to `HTTPServerObserver.handlerFailed` only.
final class HandlerFailureTests: XCTestCase {
    private struct DatabaseDown: Error, CustomStringConvertible {
        var description: String { "cannot reach db.internal:5432 with /etc/app/secret.conf" }
    }

    private let failures = Locked<[HandlerFailure]>([])

    private func server() throws -> TestServer {
        var router = Router()
        router.get("/fails") { _ in .just(error: DatabaseDown()) }
        let failures = self.failures
        let observer = HTTPServerObserver(handlerFailed: { failure in failures.withLock { $0.append(failure) } })
        return try TestServer(router: router, observer: observer)
    }

    func testAHandlersErrorTextNeverReachesAnHTTP11Client() throws {
        let server = try server()
        let client = try server.client()
        try client.send("GET /fails HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 500)
        XCTAssertFalse(response.bodyText.contains("db.internal"), response.bodyText)
        XCTAssertFalse(response.bodyText.contains("secret"), response.bodyText)
        let id = try XCTUnwrap(response.header("X-Request-ID"))
        XCTAssertTrue(response.bodyText.contains(id), "the problem quotes the request id: \(response.bodyText)")
    }

    func testAHandlersErrorTextNeverReachesAnHTTP2Client() throws {
        let server = try server()
        let result = try ChildProcess.run(
            "/usr/bin/curl", ["-sS", "--max-time", "20", "--http2-prior-knowledge", "-i", "http://127.0.0.1:\(server.port)/fails"])
        XCTAssertTrue(result.output.hasPrefix("HTTP/2 500"), result.output + result.errorOutput)
        XCTAssertFalse(result.output.contains("db.internal"), result.output)
        let id = try XCTUnwrap(
            result.output.split(separator: "\r\n").first { $0.lowercased().hasPrefix("x-request-id:") }?.split(separator: " ").last)
        XCTAssertEqual(result.output.components(separatedBy: String(id)).count, 3, "the header and the problem both name \(id)")
    }

    func testTheObserverGetsTheErrorWithTheRequestIDTheClientWasGiven() throws {
        let server = try server()
        let client = try server.client()
        try client.send("GET /fails HTTP/1.1\r\nHost: x\r\nX-Request-ID: trace-me-42\r\n\r\n")
        let response = try client.readResponse()
        XCTAssertEqual(response.header("X-Request-ID"), "trace-me-42")
        let failure = try XCTUnwrap(failures.withLock { $0.first })
        XCTAssertEqual(failure.requestID, "trace-me-42")
        XCTAssertEqual(failure.path, "/fails")
        XCTAssertEqual("\(failure.error)", "cannot reach db.internal:5432 with /etc/app/secret.conf")
    }
}
