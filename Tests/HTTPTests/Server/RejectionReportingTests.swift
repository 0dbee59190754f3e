// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Dispatch
import HTTPTestSupport
import MetricsTestKit
import StreamServiceConcurrency
import XCTest
@testable import HTTP

/// Every answer the server gives itself (before any handler) reaches the observer and
/// `http_rejections_total{status,reason}`, so an operator sees a flood of them.
final class RejectionReportingTests: XCTestCase {
    private let recorded = TestMetrics()
    private let rejections = Locked<[Rejection]>([])

    private func startServer(_ configure: (inout HTTPServerConfiguration) -> Void = { _ in }) throws -> Int {
        var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0)
        configuration.loopCount = 2
        configure(&configuration)
        let rejections = self.rejections
        let observer = HTTPServerObserver(requestRejected: { rejection in rejections.withLock { $0.append(rejection) } })
        let server = HTTPServer(configuration: configuration, router: TestServer.standardRouter, observer: observer, metrics: HTTPMetrics(factory: recorded))
        let port = try server.start()
        addTeardownBlock {
            let stopped = DispatchSemaphore(value: 0)
            server.shutdown(deadline: .seconds(2)) { stopped.signal() }
            _ = stopped.wait(timeout: .now() + 5)
        }
        return port
    }

    private func counted(_ status: String, _ reason: String) -> Int64 {
        recorded.counterTotal(label: "http_rejections_total", dimensions: [("status", status), ("reason", reason)])
    }

    private func rejected(after request: String, port: Int) throws -> Int {
        let client = try RawHTTPClient(port: port)
        try client.send(request)
        return try client.readResponse().status
    }

    func testAMalformedRequestIsReportedAs400WithItsReasonAndCounted() throws {
        let port = try startServer()
        XCTAssertEqual(try rejected(after: "GET /hello HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", port: port), 400)
        waitUntil("the rejection is reported") { [rejections] in !rejections.withLock { $0 }.isEmpty }
        let rejection = try XCTUnwrap(rejections.withLock { $0.first })
        XCTAssertEqual(rejection.status, 400)
        XCTAssertEqual(rejection.reason, .malformed)
        XCTAssertEqual(rejection.detail, "duplicate Content-Length")
        XCTAssertTrue(rejection.remoteAddress.hasPrefix("127.0.0.1:"), rejection.remoteAddress)
        XCTAssertEqual(counted("400", "malformed"), 1)
    }

    func testEachLimitIsCountedUnderItsOwnStatusAndReason() throws {
        let port = try startServer { $0.limits.maxBodyBytes = 10; $0.limits.maxRequestLineBytes = 100 }
        XCTAssertEqual(try rejected(after: "GET /\(String(repeating: "a", count: 200)) HTTP/1.1\r\n\r\n", port: port), 414)
        XCTAssertEqual(try rejected(after: "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\n", port: port), 413)
        XCTAssertEqual(try rejected(after: "GET /hello HTTP/1.1\r\nHost: x\r\n\(String(repeating: "X-A: b\r\n", count: 101))\r\n", port: port), 431)
        XCTAssertEqual(try rejected(after: "GET /hello HTTP/2.5\r\nHost: x\r\n\r\n", port: port), 505)
        XCTAssertEqual(try rejected(after: "POST /echo HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\nContent-Length: 1\r\n\r\n", port: port), 417)
        let recorded = self.recorded
        waitUntil("five rejections counted") {
            recorded.counterTotal(label: "http_rejections_total") == 5
        }
        XCTAssertEqual(counted("414", "request_line_too_long"), 1)
        XCTAssertEqual(counted("413", "body_too_large"), 1)
        XCTAssertEqual(counted("431", "headers_too_large"), 1)
        XCTAssertEqual(counted("505", "unsupported_version"), 1)
        XCTAssertEqual(counted("417", "unsupported_expectation"), 1)
    }

    func testAHeaderTimeoutIsReportedAs408() throws {
        let port = try startServer { $0.timeouts.header = .milliseconds(200) }
        XCTAssertEqual(try rejected(after: "GET /hello HTTP/1.1\r\n", port: port), 408)
        waitUntil("the timeout is counted") { [recorded] in
            recorded.counterTotal(label: "http_rejections_total", dimensions: [("status", "408"), ("reason", "header_timeout")]) == 1
        }
        XCTAssertEqual(rejections.withLock { $0.first?.detail }, "The request's headers were not received within 200 ms")
    }

    func testAConnectionOverMaxConnectionsIsReportedAs503() throws {
        let port = try startServer { $0.limits.maxConnections = 1 }
        let first = try RawHTTPClient(port: port)
        try first.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try first.readResponse().status, 200)
        XCTAssertEqual(try RawHTTPClient(port: port).readResponse().status, 503)
        waitUntil("the refusal is counted") { [recorded] in
            recorded.counterTotal(label: "http_rejections_total", dimensions: [("status", "503"), ("reason", "too_many_connections")]) == 1
        }
    }
}
