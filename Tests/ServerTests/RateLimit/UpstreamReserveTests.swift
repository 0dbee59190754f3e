// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTestSupport
import XCTest
@testable import Domain
@testable import Server

/// `--upstream-reserve` against the demo upstream's `--demo-rate-limit`: once the reported
/// remaining falls to the reserve, uncached work is 503 until the reset; cached answers are not.
final class UpstreamReserveTests: XCTestCase {
    private static let logins = ["ada1", "grace2", "alan3", "edsger4", "barbara5", "donald6", "margaret7", "dennis8", "frances9", "ken10"]

    func testReachingTheReserveHoldsUncachedWorkBackButServesCachedAnswers() throws {
        let app = try AppHarness(self) {
            $0.demoRateLimit = 20
            $0.upstreamReserve = 15
        }
        var served: [String] = []
        var refused: RawHTTPClient.Response?
        for login in Self.logins {
            let response = try app.get("/users/\(login)")
            if response.status == 503 {
                refused = response
                break
            }
            XCTAssertEqual(response.status, 200, response.bodyText)
            served.append(login)
        }
        let reserve = try XCTUnwrap(refused, "two requests per profile from 20: the reserve of 15 is reached by the fourth")
        XCTAssertLessThanOrEqual(served.count, 3)
        let retryAfter = try XCTUnwrap(reserve.header("Retry-After").flatMap(Int.init))
        XCTAssertGreaterThan(retryAfter, 3000, "until the demo's hourly window resets")
        XCTAssertEqual(reserve.header("Content-Type"), "application/problem+json")
        XCTAssertEqual(try app.get("/users/\(served[0])").status, 200, "a cached answer, revalidated by a free 304")
        let ready = try app.get("/ready")
        XCTAssertEqual(ready.status, 200, "the reserve never makes a replica unready")
        let quota = try XCTUnwrap(ready.bodyJSON?["upstreamQuota"] as? [String: Any], ready.bodyText)
        XCTAssertEqual(quota["status"] as? String, "reserved")
        XCTAssertEqual(quota["reserve"] as? Int, 15)
        let page = app.metricsPage { $0.contains("upstream_ratelimit_remaining") }
        let remaining = try XCTUnwrap(PrometheusSample.value(of: "upstream_ratelimit_remaining", in: page))
        XCTAssertLessThanOrEqual(remaining, 15)
        XCTAssertEqual(PrometheusSample.value(of: "upstream_ratelimit_limit", in: page), 20)
    }

    func testTheDefaultReserveIsATenthOfAnEnforcedLimit() throws {
        let app = try AppHarness(self) { $0.demoRateLimit = 1000 }
        XCTAssertEqual(try app.get("/users/ada1").status, 200)
        let quota = try XCTUnwrap(try app.get("/ready").bodyJSON?["upstreamQuota"] as? [String: Any])
        XCTAssertEqual(quota["limit"] as? Int, 1000)
        XCTAssertEqual(quota["reserve"] as? Int, 100)
        XCTAssertEqual(quota["status"] as? String, "available")
    }

    func testADemoThatNeverRefusesHasItsQuotaReportedButNothingHeldBack() throws {
        let app = try AppHarness(self)
        XCTAssertEqual(try app.get("/users/ada1").status, 200)
        let quota = try XCTUnwrap(try app.get("/ready").bodyJSON?["upstreamQuota"] as? [String: Any])
        XCTAssertEqual(quota["limit"] as? Int, 5000, "the demo reports GitHub's 5,000 without a limit set")
        XCTAssertEqual(quota["reserve"] as? Int, 0, "a limit nobody enforces is not worth going dark for")
        XCTAssertEqual(quota["status"] as? String, "available")
    }

    func testTheReserveHoldsBackByDefaultOnlyWhereAQuotaIsAtStake() {
        var configuration = ServiceConfiguration()
        XCTAssertFalse(configuration.upstreamReserveHoldsBack, "the embedded demo without a limit")
        configuration.demoRateLimit = 100
        XCTAssertTrue(configuration.upstreamReserveHoldsBack, "the embedded demo enforcing a limit")
        configuration.demoRateLimit = 0
        configuration.upstream = URL(string: "http://127.0.0.1:9")
        XCTAssertFalse(configuration.upstreamReserveHoldsBack, "anonymous use of an upstream")
        configuration.githubToken = "token"
        XCTAssertTrue(configuration.upstreamReserveHoldsBack, "an operator's token")
        configuration.githubToken = nil
        configuration.upstreamReserve = 10
        XCTAssertTrue(configuration.upstreamReserveHoldsBack, "an explicit --upstream-reserve")
    }

    func testAQuotaThatDoesNotHoldBackNeverWaitsEvenWhenSpent() {
        let quota = UpstreamQuota(holdsBack: false)
        quota.observe(UpstreamResponse(status: 200, headers: ["x-ratelimit-limit": "5000", "x-ratelimit-remaining": "0", "x-ratelimit-reset": "\(Int(Date().timeIntervalSince1970) + 600)"], body: []))
        XCTAssertEqual(quota.snapshot?.remaining, 0)
        XCTAssertNil(quota.reservedWait())
    }
}
