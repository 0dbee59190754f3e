// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTestSupport
import ProcessTestSupport
import StreamServiceConcurrency
import XCTest
@testable import Server

/// `--client-upstream-rate` under concurrency: each request reserves its estimated cost before it
/// starts, so one client's requests in flight together cannot spend more than its budget. Before,
/// each passed a check of its own: 100 concurrent requests on a budget of 5 cost 205 upstream
/// requests (issue 34). The bound held here: upstream requests ≤ the burst, since the demo's
/// costs are what the estimates say (a page and one avatar for `/users?limit=1`).
final class UpstreamReservationTests: XCTestCase {
    /// A budget of 5 an hour, and upstream answers slow enough that every request is in flight at once.
    private func app() throws -> AppHarness {
        try AppHarness(self) {
            $0.clientUpstreamRate = RatePolicy(name: "upstream", count: 5, period: .seconds(3600))
            $0.demoLatency = .milliseconds(300)
        }
    }

    /// `/users?limit=1&since=i`: a page and an avatar (2 units), different for every `i`, so
    /// nothing is cached or shared between requests.
    private static func page(_ index: Int) -> String { "/users?limit=1&since=\(index * 10)" }

    func testConcurrentH2RequestsOfOneClientSpendNoMoreThanItsBudget() throws {
        let app = try app()
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("HTTP2Clients/h2_frames.py").path
        let run = try ChildProcess.run("/usr/bin/python3", ["-B", script, String(app.port), "concurrent-gets", "/users?limit=1&since={i}0", "100"], within: 60)
        XCTAssertEqual(run.termination, .exited(0), "python3-h2 missing? (apt-get install -y python3-h2) \(run.errorOutput)")
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any], run.output)
        let statuses = try XCTUnwrap(report["statuses"] as? [String: Int], run.output)
        let retryAfter = try XCTUnwrap(report["retryAfter"] as? [String: String], run.output)
        XCTAssertEqual(statuses.count, 100, run.output)
        XCTAssertEqual(statuses.values.filter { $0 == 200 }.count, 2, "2 + 2 units fit in a budget of 5; a third 2 does not")
        let refused = statuses.filter { $0.value == 429 }.map(\.key)
        XCTAssertEqual(refused.count, 98, run.output)
        XCTAssertTrue(refused.allSatisfy { retryAfter[$0].flatMap(Int.init).map { $0 > 0 } == true }, "every 429 says when to retry: \(retryAfter)")
        XCTAssertLessThanOrEqual(UpstreamBudgetTests.charged(app), 5, "no more upstream requests than the budget")
    }

    func testConcurrentHTTP1RequestsOfOneClientSpendNoMoreThanItsBudget() throws {
        let app = try app()
        let statuses = Locked<[Int]>([])
        let port = app.port
        DispatchQueue.concurrentPerform(iterations: 40) { index in
            let client = try? RawHTTPClient(port: port)
            try? client?.send("GET \(Self.page(index)) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            let status = (try? client?.readResponse())??.status ?? -1
            statuses.withLock { $0.append(status) }
        }
        let seen = statuses.withLock { $0 }
        XCTAssertEqual(seen.filter { $0 == 200 }.count, 2, "\(seen)")
        XCTAssertEqual(seen.filter { $0 == 429 }.count, 38, "\(seen)")
        XCTAssertLessThanOrEqual(UpstreamBudgetTests.charged(app), 5)
    }

    /// `/users?limit=1` costs 2: the answer's `RateLimit` says what is left after them (before, `r=10`).
    func testTheRateLimitFieldCountsTheRequestsOwnCharge() throws {
        let app = try AppHarness(self) { $0.clientUpstreamRate = RatePolicy(name: "upstream", count: 10, period: .seconds(3600)) }
        let response = try app.get("/users?limit=1")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(UpstreamBudgetTests.charged(app), 2)
        XCTAssertEqual(response.header("RateLimit")?.hasPrefix(#""upstream";r=8;"#), true, response.header("RateLimit") ?? "no RateLimit field")
    }

    /// A refused request is told when its own estimate fits, not when one unit does.
    func testARefusalWaitsForTheRequestsEstimateToFit() throws {
        let app = try AppHarness(self) { $0.clientUpstreamRate = RatePolicy(name: "upstream", count: 6, period: .seconds(3600)) }
        XCTAssertEqual(try app.get("/users?limit=3&since=2").status, 200, "4 of 6: a page and three avatars (users 3 to 5, none behind a redirect)")
        let refused = try app.get("/users?limit=2&since=100")
        XCTAssertEqual(refused.status, 429, "3 more do not fit in the 2 left")
        let retryAfter = try XCTUnwrap(refused.header("Retry-After").flatMap(Int.init))
        XCTAssertEqual(Double(retryAfter), 600, accuracy: 2, "one unit (600 s) more must be paid back")
        XCTAssertEqual(try app.get("/users/ada1").status, 200, "a profile's 2 still fit")
    }

    /// A streamed answer's work outlives its headers: its fields count the estimate, and its
    /// reservation is settled once the stream is over, giving back what it did not spend (here
    /// all but what it really fetched: the page and avatars come back as free 304s).
    func testAStreamGivesBackWhatItDidNotSpendOnceItIsOver() throws {
        let app = try AppHarness(self) { $0.clientUpstreamRate = RatePolicy(name: "upstream", count: 100, period: .seconds(3600)) }
        XCTAssertEqual(try app.get("/users?limit=3&since=2").status, 200)
        XCTAssertEqual(UpstreamBudgetTests.charged(app), 4)
        let feed = try SSETestClient(port: app.port, target: "/users/stream?limit=3&since=2")
        XCTAssertEqual(feed.headers["ratelimit"]?.hasPrefix(#""upstream";r=92;"#), true, "100, less 4 spent and 4 reserved: \(feed.headers)")
        XCTAssertEqual(try feed.all().last?.event, "end")
        let port = app.port, spent = UpstreamBudgetTests.charged(app)
        XCTAssertLessThan(spent, 8, "the stream spent less than its estimate")
        waitUntil("the stream's reservation is settled", timeout: 5) { Self.remaining(port: port) == 100 - spent }
    }

    /// `RateLimit`'s `r=` on a free probe (`limit=0` is refused before any upstream work).
    private static func remaining(port: Int) -> Int? {
        guard let client = try? RawHTTPClient(port: port),
              (try? client.send("GET /users?limit=0 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")) != nil,
              let response = try? client.readResponse() else { return nil }
        return UpstreamBudgetTests.remaining(response)
    }
}
