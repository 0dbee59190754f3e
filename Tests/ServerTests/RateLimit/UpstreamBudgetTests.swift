// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import XCTest
@testable import Server
import HTTPTestSupport

/// `--client-upstream-rate` over real sockets: budgets charged by what requests really fetch,
/// and the 429 that comes before any upstream work. (Concurrent requests: `UpstreamReservationTests`.)
final class UpstreamBudgetTests: XCTestCase {
    private func app(count: Int, burst: Int? = nil, configure: @escaping (inout ServiceConfiguration) -> Void = { _ in }) throws -> AppHarness {
        try AppHarness(self) {
            $0.clientUpstreamRate = RatePolicy(name: "upstream", count: count, period: .seconds(3600), burst: burst)
            configure(&$0)
        }
    }

    /// The `r=` of a response's `RateLimit` field.
    static func remaining(_ response: RawHTTPClient.Response) -> Int? {
        response.header("RateLimit")?.split(separator: ";").first { $0.hasPrefix("r=") }.flatMap { Int($0.dropFirst(2)) }
    }

    /// Upstream exchanges that were not answered 304 so far: what the budget should have been charged.
    static func charged(_ app: AppHarness) -> Int {
        let page = app.metricsPage { _ in true }
        return Self.upstreamAttempts(page) - Int(PrometheusSample.value(of: "upstream_cache_hits_total", in: page) ?? 0)
    }

    func testAnUncachedPageCostsWhatItFetchesAndARevalidatedOneOnlyWhatWasNotA304() throws {
        let app = try app(count: 1000)
        let first = try app.get("/users?limit=5")
        XCTAssertEqual(first.status, 200)
        let spentFirst = Self.charged(app)
        XCTAssertGreaterThanOrEqual(spentFirst, 6, "a page and five avatars (and any avatar redirects)")
        XCTAssertEqual(Self.remaining(first), 1000 - spentFirst, "the fields say what is left after the request's own charge")
        let second = try app.get("/users?limit=5")
        let spentSecond = Self.charged(app) - spentFirst
        XCTAssertLessThan(spentSecond, spentFirst, "the page and avatars came back 304: free; only redirects cost again")
        XCTAssertEqual(Self.remaining(second), 1000 - spentFirst - spentSecond, "what the reservation did not spend was given back")
        let third = try app.get("/users?limit=5")
        XCTAssertEqual(Self.remaining(third), 1000 - Self.charged(app))
    }

    func testAProfilePageCostsItsPageAvatarsAndProfiles() throws {
        let app = try app(count: 1000)
        XCTAssertEqual(try app.get("/users?limit=3&profile=true").status, 200)
        XCTAssertGreaterThanOrEqual(Self.charged(app), 7, "one page, three avatars, three profiles")
        let profile = try app.get("/users/ada1")
        XCTAssertEqual(Self.remaining(profile), 1000 - Self.charged(app))
    }

    func testOverBudgetIs429WithRetryAfterAndTheRateLimitFieldsBeforeAnyUpstreamWork() throws {
        let app = try app(count: 5)
        XCTAssertEqual(try app.get("/users?limit=10").status, 200, "admitted with a whole budget; it runs into debt")
        let before = app.metricsPage { _ in true }
        let refused = try app.get("/users/margaret7")
        XCTAssertEqual(refused.status, 429)
        XCTAssertEqual(refused.header("Content-Type"), "application/problem+json")
        let retryAfter = try XCTUnwrap(refused.header("Retry-After").flatMap(Int.init))
        XCTAssertGreaterThan(retryAfter, 3600 * 5 / 5, "11 units spent of 5 an hour: more than an hour to wait")
        XCTAssertEqual(refused.header("RateLimit-Policy"), #""upstream";q=5;w=3600"#)
        XCTAssertEqual(refused.header("RateLimit"), #""upstream";r=0;t=\#(retryAfter)"#)
        let after = app.metricsPage { _ in true }
        XCTAssertEqual(Self.upstreamAttempts(before), Self.upstreamAttempts(after), "no upstream request for the refused one")
    }

    func testTheBudgetIsKeptPerTokenSubjectWhenAuthenticated() throws {
        let mint = try TokenMint()
        let app = try app(count: 3) { $0.auth = AuthSettings(key: .secret(mint.secret)) }
        let alice = try mint.token(["sub": "alice"]), bob = try mint.token(["sub": "bob"])
        // A profile costs two requests: the user and a page of repositories.
        XCTAssertEqual(try app.get("/users/ada1", headers: ["Authorization": "Bearer \(alice)"]).status, 200)
        XCTAssertEqual(try app.get("/users/grace2", headers: ["Authorization": "Bearer \(alice)"]).status, 429, "alice spent 2 of 3: 2 more do not fit")
        XCTAssertEqual(try app.get("/users/alan3", headers: ["Authorization": "Bearer \(bob)"]).status, 200, "bob has his own budget")
        XCTAssertEqual(try app.get("/users/edsger4").status, 200, "so has the anonymous client at 127.0.0.1")
    }

    func testWithoutARateNothingIsLimitedAndNoFieldsAreSent() throws {
        let app = try AppHarness(self)
        let response = try app.get("/users?limit=2")
        XCTAssertEqual(response.status, 200)
        XCTAssertNil(response.header("RateLimit"))
    }

    static func upstreamAttempts(_ page: String) -> Int {
        page.split(separator: "\n").filter { $0.hasPrefix("upstream_requests_total{") }
            .compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }.reduce(0) { $0 + Int($1) }
    }
}
