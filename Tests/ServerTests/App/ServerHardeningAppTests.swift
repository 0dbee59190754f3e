// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import XCTest
@testable import Server
import HTTPTestSupport

/// The service's own answers (rejections) are logged and counted; the hardening flags reach the server.
final class ServerHardeningAppTests: XCTestCase {
    private func rejectionLines(_ app: AppHarness) -> [[String: Any]] {
        app.logLines().filter { ($0["message"] as? String)?.hasPrefix("rejected ") == true }
    }

    /// Waits (bounded) until a rejection line satisfying `matches` was logged.
    private func waitForRejectionLine(_ app: AppHarness, _ matches: @escaping ([String: Any]) -> Bool = { _ in true }) {
        let logged = XCTNSPredicateExpectation(predicate: NSPredicate { _, _ in self.rejectionLines(app).contains(where: matches) }, object: nil)
        _ = XCTWaiter.wait(for: [logged], timeout: 5)
    }

    private func sendBadRequest(to app: AppHarness) throws -> Int {
        let client = try app.client()
        try client.send("GET /health HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n")
        return try client.readResponse().status
    }

    func testABadRequestIsLoggedAtInfoWithItsReasonAndCountedAtMetrics() throws {
        let app = try AppHarness(self)
        XCTAssertEqual(try sendBadRequest(to: app), 400)
        waitForRejectionLine(app)
        let line = try XCTUnwrap(rejectionLines(app).first)
        XCTAssertEqual(line["message"] as? String, "rejected 400: duplicate Content-Length")
        XCTAssertEqual(line["level"] as? String, "info")
        XCTAssertEqual(line["reason"] as? String, "malformed")
        XCTAssertEqual(line["status"] as? Int, 400)
        let page = app.metricsPage { $0.contains(#"http_rejections_total{status="400",reason="malformed"} 1"#) }
        XCTAssertTrue(page.contains(#"http_rejections_total{status="400",reason="malformed"} 1"#), page)
        XCTAssertTrue(page.contains("# HELP http_rejections_total"), page)
    }

    func testAFloodOfRejectionsIsCountedInFullButLoggedOnlyInABurstAndThenOneASecond() throws {
        let app = try AppHarness(self)
        for _ in 0..<60 { XCTAssertEqual(try sendBadRequest(to: app), 400) }
        let page = app.metricsPage { $0.contains(#"http_rejections_total{status="400",reason="malformed"} 60"#) }
        XCTAssertTrue(page.contains(#"http_rejections_total{status="400",reason="malformed"} 60"#), page)
        let logged = rejectionLines(app).count
        XCTAssertGreaterThanOrEqual(logged, ServerEventLog.rejectionBurst)
        // The burst, plus one a second for however long the 60 requests took.
        XCTAssertLessThan(logged, 30, "\(logged) rejection lines for 60 rejections")
    }

    func testMaxConnectionsPerClientReachesTheServer() throws {
        let app = try AppHarness(self) { $0.maxConnectionsPerClient = 1 }
        let held = try app.client()
        try held.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try held.readResponse().status, 200)
        let refused = try app.client().readResponse()
        XCTAssertEqual(refused.status, 503)
        XCTAssertTrue(refused.bodyText.contains("Too many connections from this client"), refused.bodyText)
    }

    func testBodyTimeoutReachesTheServerAndItsRejectionIsLogged() throws {
        let app = try AppHarness(self) { $0.bodyTimeout = .milliseconds(200) }
        let client = try app.client()
        try client.send("POST /health HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nab")
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 408)
        XCTAssertTrue(response.bodyText.contains("within 200 ms"), response.bodyText)
        waitForRejectionLine(app) { $0["reason"] as? String == "body_timeout" }
        XCTAssertTrue(rejectionLines(app).contains { $0["reason"] as? String == "body_timeout" }, "\(app.logLines())")
    }
}

/// `--upstream-timeout`, `--upstream-retries` and `--upstream-deadline` against the embedded demo
/// upstream made slow with `--demo-latency-ms`.
final class UpstreamDeadlineAppTests: XCTestCase {
    func testASlowUpstreamGets504AtTheDeadlineNamingIt() throws {
        let app = try AppHarness(self) {
            $0.demoLatency = .seconds(5)
            $0.upstreamTimeout = .milliseconds(200)
            $0.upstreamRetries = 50
            $0.upstreamDeadline = .milliseconds(800)
            $0.upstreamCacheBytes = 0
        }
        let started = ContinuousClock.now
        let response = try app.get("/users/ada1")
        let elapsed = ContinuousClock.now - started
        XCTAssertEqual(response.status, 504)
        let detail = response.bodyJSON?["detail"] as? String ?? ""
        XCTAssertTrue(detail.contains("within 800 ms (the deadline of the whole call)"), detail)
        XCTAssertGreaterThanOrEqual(elapsed, .milliseconds(800))
        XCTAssertLessThan(elapsed, .seconds(3), "50 retries of 200 ms would take over 10 s")
    }

    func testASlowUpstreamWithoutRetriesGets504AtThePerAttemptTimeoutNamingIt() throws {
        let app = try AppHarness(self) {
            $0.demoLatency = .seconds(5)
            $0.upstreamTimeout = .milliseconds(300)
            $0.upstreamRetries = 0
            $0.upstreamCacheBytes = 0
        }
        let response = try app.get("/users/ada1")
        XCTAssertEqual(response.status, 504)
        let detail = response.bodyJSON?["detail"] as? String ?? ""
        XCTAssertTrue(detail.contains("within 300 ms (the per-attempt timeout)"), detail)
        XCTAssertFalse(detail.contains("seconds"), detail)
    }
}

/// At `--shutdown-timeout` a request still waiting for the upstream gets a 503, and the log says how many did.
final class ShutdownDeadlineAppTests: XCTestCase {
    func testARequestWaitingForASlowUpstreamAtTheDeadlineGets503AndTheLogCountsIt() throws {
        let app = try AppHarness(self) {
            $0.shutdownTimeout = .milliseconds(300)
            $0.demoLatency = .seconds(30)
            $0.upstreamDeadline = .seconds(60)
            $0.upstreamTimeout = .seconds(60)
        }
        let client = try app.client()
        try client.send("GET /users/ada1 HTTP/1.1\r\nHost: x\r\n\r\n")
        let inFlight = XCTNSPredicateExpectation(predicate: NSPredicate { _, _ in
            let page = (try? app.get("/metrics").bodyText) ?? ""
            return page.contains("upstream_in_flight ") && !page.contains("upstream_in_flight 0")
        }, object: nil)
        XCTAssertEqual(XCTWaiter.wait(for: [inFlight], timeout: 5), .completed, "the request reached the upstream")
        app.application.shutdown()
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 503)
        XCTAssertEqual(response.header("Connection"), "close")
        let logged = XCTNSPredicateExpectation(predicate: NSPredicate { _, _ in
            app.logLines().contains { ($0["message"] as? String)?.hasPrefix("shutdown deadline of 300 ms reached") == true }
        }, object: nil)
        XCTAssertEqual(XCTWaiter.wait(for: [logged], timeout: 5), .completed, "\(app.logLines())")
        let line = app.logLines().first { ($0["message"] as? String)?.hasPrefix("shutdown deadline") == true }
        XCTAssertEqual(line?["answered_503"] as? Int, 1)
        XCTAssertEqual(line?["level"] as? String, "warning")
    }
}
