// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

@testable import Domain
import XCTest

/// `UpstreamQuota`: what the upstream's `x-ratelimit-*` fields say, and when the reserve holds.
final class UpstreamQuotaTests: XCTestCase {
    private func answer(limit: Int, remaining: Int, reset: Int) -> UpstreamResponse {
        UpstreamResponse(status: 200, headers: ["X-RateLimit-Limit": "\(limit)", "X-RateLimit-Remaining": "\(remaining)", "X-RateLimit-Reset": "\(reset)"])
    }

    func testTheReserveHoldsFromItsLevelUntilTheReset() {
        let quota = UpstreamQuota(reserve: 100)
        quota.observe(answer(limit: 5000, remaining: 101, reset: 2000))
        XCTAssertNil(quota.reservedWait(now: 1000))
        quota.observe(answer(limit: 5000, remaining: 100, reset: 2000))
        XCTAssertEqual(quota.reservedWait(now: 1000), 1000)
        XCTAssertNil(quota.reservedWait(now: 2000), "the window has reset")
    }

    func testTheDefaultReserveIsATenthOfTheReportedLimit() {
        let quota = UpstreamQuota()
        XCTAssertNil(quota.snapshot)
        quota.observe(answer(limit: 5000, remaining: 499, reset: 10))
        XCTAssertEqual(quota.reserve(for: 5000), 500)
        XCTAssertEqual(quota.reservedWait(now: 9.5), 1, "at least a second")
    }

    func testAResetBeyondAnyRealWindowWaitsADayAtMostInsteadOfTrapping() {
        let quota = UpstreamQuota(reserve: 100)
        quota.observe(UpstreamResponse(status: 200, headers: ["X-RateLimit-Limit": "5000", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1e300"]))
        XCTAssertEqual(quota.reservedWait(now: 1000), RateLimitReset.longestWait)
    }

    func testAResetThatIsNoFiniteNumberHoldsNothingBack() {
        let quota = UpstreamQuota(reserve: 100)
        quota.observe(UpstreamResponse(status: 200, headers: ["X-RateLimit-Limit": "5000", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "inf"]))
        XCTAssertNil(quota.reservedWait(now: 1000))
    }

    func testAnAnswerWithoutTheFieldsChangesNothing() {
        let quota = UpstreamQuota(reserve: 10)
        quota.observe(answer(limit: 60, remaining: 5, reset: 100))
        quota.observe(UpstreamResponse(status: 200, headers: ["Content-Type": "image/png"]))
        XCTAssertEqual(quota.snapshot?.remaining, 5)
    }
}
