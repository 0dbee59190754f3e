// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import Domain

final class RetryPolicyTests: XCTestCase {
    let policy = RetryPolicy(maxRetries: 3, baseDelay: .milliseconds(100), maxDelay: .milliseconds(250), jitter: 0.5)

    func delay(_ retry: Int, after error: UpstreamError, random: Double = 0) -> Duration? {
        policy.backoff(random: { random }).delay(beforeRetry: retry, after: error)
    }

    func testBackoffDoublesUpToTheCap() {
        XCTAssertEqual((1...3).map { delay($0, after: .timeout(after: .seconds(5))) }, [.milliseconds(100), .milliseconds(200), .milliseconds(250)])
    }

    func testJitterShortensTheWaitByUpToItsFraction() {
        XCTAssertEqual(delay(1, after: .timeout(after: .seconds(5)), random: 0.999_999)!, .milliseconds(50), accuracy: .microseconds(1))
    }

    func testRetriesConnectionErrorsTimeouts5xxAndShortRateLimits() {
        for error: UpstreamError in [.connection("reset"), .timeout(after: .seconds(5)), .status(500, retryAfterSeconds: nil), .status(503, retryAfterSeconds: nil), .rateLimited(retryAfterSeconds: 1)] {
            XCTAssertNotNil(delay(1, after: error), "\(error)")
        }
    }

    func testNeverRetriesOther4xxOrMalformedAnswers() {
        for error: UpstreamError in [.status(400, retryAfterSeconds: nil), .status(404, retryAfterSeconds: nil), .status(403, retryAfterSeconds: nil), .malformed("json")] {
            XCTAssertNil(delay(1, after: error), "\(error)")
        }
    }

    func testHonoursRetryAfterInsteadOfBackoff() {
        XCTAssertEqual(delay(1, after: .rateLimited(retryAfterSeconds: 2), random: 0.5), .seconds(2))
    }

    func testServerWaitBeyondTheLimitIsNotWaitedFor() {
        XCTAssertNil(delay(1, after: .status(503, retryAfterSeconds: 60)))
        XCTAssertNil(delay(1, after: .rateLimited(retryAfterSeconds: 6)))
        XCTAssertNotNil(delay(1, after: .rateLimited(retryAfterSeconds: 5)), "5 s is still waited for")
    }

    func testUnknownErrorsAreClassifiedOnceAsConnectionFailures() {
        struct Unknown: Error {}
        XCTAssertEqual(UpstreamError(classifying: Unknown()), .connection(String(describing: Unknown())))
        XCTAssertNotNil(policy.backoff(random: { 0 }).delay(beforeRetry: 1, after: Unknown()), "retried like a connection failure")
    }
}

func XCTAssertEqual(_ a: Duration, _ b: Duration, accuracy: Duration, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertLessThanOrEqual(abs(a - b), accuracy, "\(a) vs \(b)", file: file, line: line)
}

func abs(_ duration: Duration) -> Duration { duration < .zero ? .zero - duration : duration }
