// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTP
import XCTest
@testable import Domain

/// An upstream's answers classified with the HTTP library's public pieces: `Retry-After` read by
/// `RetryAfter` in both forms, an `HTTPStatusError` classified as the answer it carries.
final class UpstreamErrorTests: XCTestCase {
    /// Sun, 06 Nov 1994 08:49:37 GMT.
    private let now = Date(timeIntervalSince1970: 784_111_777)

    private func answer(_ status: Int, retryAfter: String) -> UpstreamError? {
        UpstreamError(answer: UpstreamResponse(status: status, headers: ["Retry-After": retryAfter]), now: now)
    }

    func testDelaySecondsAreTheWait() {
        XCTAssertEqual(answer(503, retryAfter: "2"), .status(503, retryAfterSeconds: 2))
        XCTAssertEqual(answer(429, retryAfter: "3"), .rateLimited(retryAfterSeconds: 3))
    }

    func testAnHTTPDateIsTheWaitUntilItInWholeSeconds() {
        XCTAssertEqual(answer(503, retryAfter: "Sun, 06 Nov 1994 08:49:39 GMT"), .status(503, retryAfterSeconds: 2))
        XCTAssertEqual(answer(429, retryAfter: "Sun, 06 Nov 1994 08:49:42 GMT"), .rateLimited(retryAfterSeconds: 5))
        XCTAssertEqual(answer(503, retryAfter: "Sun, 06 Nov 1994 08:00:00 GMT"), .status(503, retryAfterSeconds: 0), "a date past: no wait")
    }

    func testABadRetryAfterIsIgnored() {
        XCTAssertEqual(answer(503, retryAfter: "soon"), .status(503, retryAfterSeconds: nil))
        XCTAssertEqual(answer(503, retryAfter: "-5"), .status(503, retryAfterSeconds: nil))
        XCTAssertEqual(answer(429, retryAfter: "1.5"), .rateLimited(retryAfterSeconds: 60), "GitHub's advice without a usable wait")
    }

    func testAnHTTPStatusErrorIsClassifiedAsTheAnswerItCarries() {
        let limited = HTTPStatusError(HTTPClientResponse(status: .tooManyRequests, headers: ["Retry-After": "2"]))
        XCTAssertEqual(UpstreamError(classifying: limited), .rateLimited(retryAfterSeconds: 2))
        XCTAssertEqual(UpstreamError(classifying: HTTPStatusError(HTTPClientResponse(status: .badGateway))), .status(502, retryAfterSeconds: nil))
    }

    func testTheBackoffWaitsTheWaitAFailureNames() {
        let backoff = RetryPolicy(jitter: 0).backoff()
        XCTAssertEqual(backoff.delay(beforeRetry: 1, after: UpstreamError.status(503, retryAfterSeconds: 2)), .seconds(2))
        XCTAssertEqual(backoff.delay(beforeRetry: 1, after: UpstreamFailure(.rateLimited(retryAfterSeconds: 3), stage: .users)), .seconds(3))
    }
}
