// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Dispatch
import HTTPTestSupport
import MetricsTestKit
import XCTest
@testable import HTTP

final class HTTPMetricsTests: XCTestCase {
    let recorded = TestMetrics()

    func completed(_ method: HTTPMethod = .get, route: String?, status: Int = 200, duration: Duration = .milliseconds(3)) -> CompletedRequest {
        CompletedRequest(
            method: method, path: "/x", target: "/x", routePattern: route, status: status, duration: duration,
            bodyBytes: 0, requestID: "r", remoteAddress: "127.0.0.1:1", userAgent: nil, completed: true)
    }

    func requests(_ method: String, _ route: String, _ status: String) -> Int64 {
        Self.requests(in: recorded, method, route, status)
    }

    static func requests(in recorded: TestMetrics, _ method: String, _ route: String, _ status: String) -> Int64 {
        recorded.counterTotal(label: "http_requests_total", dimensions: [("method", method), ("route", route), ("status", status)])
    }

    func testAServerRecordsEveryAnsweredRequestAndItsOpenConnections() throws {
        let server = HTTPServer(
            configuration: .init(host: "127.0.0.1", port: 0), router: TestServer.standardRouter, metrics: HTTPMetrics(factory: recorded))
        let port = try server.start()
        addTeardownBlock {
            let stopped = DispatchSemaphore(value: 0)
            server.shutdown(deadline: .seconds(2)) { stopped.signal() }
            _ = stopped.wait(timeout: .now() + 5)
        }
        let client = try RawHTTPClient(port: port)
        try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\nGET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try client.readResponse().status, 200)
        XCTAssertEqual(try client.readResponse().status, 404)
        let recorded = self.recorded
        waitUntil("both requests recorded") {
            Self.requests(in: recorded, "GET", "/hello", "200") == 1 && Self.requests(in: recorded, "GET", "unmatched", "404") == 1
        }
        XCTAssertEqual(try recorded.expectMeter("http_connections_open").lastValue, 1)
    }

    func testRequestsAreCountedByMethodRoutePatternAndStatus() {
        let metrics = HTTPMetrics(factory: recorded)
        metrics.record(completed(route: "/users/{login}"))
        metrics.record(completed(route: "/users/{login}"))
        metrics.record(completed(.post, route: "/users/{login}", status: 405))
        XCTAssertEqual(requests("GET", "/users/{login}", "200"), 2)
        XCTAssertEqual(requests("POST", "/users/{login}", "405"), 1)
    }

    func testRecordingFromManyThreadsAtOnceCountsEveryRequestInItsOwnSeries() {
        // Four threads, each adding series while the others read them: no request lost or misfiled.
        let metrics = HTTPMetrics(factory: recorded)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<500 {
                metrics.record(CompletedRequest(
                    method: .get, path: "/x", target: "/x", routePattern: "/r\(index % 25)", status: 200 + thread, duration: .milliseconds(1),
                    bodyBytes: 0, requestID: "r", remoteAddress: "127.0.0.1:1", userAgent: nil, completed: true))
            }
        }
        for thread in 0..<4 {
            for route in 0..<25 { XCTAssertEqual(requests("GET", "/r\(route)", "\(200 + thread)"), 20, "/r\(route) \(200 + thread)") }
        }
    }

    func testARequestThatMatchedNoRouteIsLabelledUnmatched() {
        HTTPMetrics(factory: recorded).record(completed(route: nil, status: 404))
        XCTAssertEqual(requests("GET", "unmatched", "404"), 1)
    }

    func testANonStandardMethodIsLabelledOther() {
        HTTPMetrics(factory: recorded).record(completed(HTTPMethod("BREW"), route: nil, status: 405))
        XCTAssertEqual(requests("other", "unmatched", "405"), 1)
    }

    func testEachRequestIsTimedUnderItsRoute() throws {
        HTTPMetrics(factory: recorded).record(completed(route: "/health", duration: .microseconds(1500)))
        XCTAssertEqual(try recorded.expectTimer("http_request_duration_seconds", [("route", "/health")]).values, [1_500_000])
    }

    func testOpenConnectionsFollowTheServersCount() throws {
        let metrics = HTTPMetrics(factory: recorded)
        metrics.connectionsChanged(to: 3)
        metrics.connectionsChanged(to: 2)
        XCTAssertEqual(try recorded.expectMeter("http_connections_open").lastValue, 2)
    }

    func testOpenConnectionsStartAtZero() throws {
        _ = HTTPMetrics(factory: recorded)
        XCTAssertEqual(try recorded.expectMeter("http_connections_open").lastValue, 0)
    }
}
