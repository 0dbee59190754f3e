import XCTest
@testable import Domain

final class RetryPolicyTests: XCTestCase {
    let policy = RetryPolicy(maxRetries: 3, baseDelay: .milliseconds(100), maxDelay: .milliseconds(250), jitter: 0.5)

    func testBackoffDoublesUpToTheCap() {
        let delays = (1...3).map { policy.delay(beforeRetry: $0, after: .timeout, unitRandom: 0) }
        XCTAssertEqual(delays, [.milliseconds(100), .milliseconds(200), .milliseconds(250)])
    }

    func testJitterShortensTheWaitByUpToItsFraction() {
        XCTAssertEqual(policy.delay(beforeRetry: 1, after: .timeout, unitRandom: 0.999_999)!, .milliseconds(50), accuracy: .microseconds(1))
    }

    func testGivesUpAfterMaxRetries() {
        XCTAssertNil(policy.delay(beforeRetry: 4, after: .timeout, unitRandom: 0))
    }

    func testRetriesConnectionErrorsTimeouts5xxAnd429() {
        for error: UpstreamError in [.connection("reset"), .timeout, .status(500, retryAfterSeconds: nil), .status(503, retryAfterSeconds: nil), .status(429, retryAfterSeconds: nil)] {
            XCTAssertNotNil(policy.delay(beforeRetry: 1, after: error, unitRandom: 0), "\(error)")
        }
    }

    func testNeverRetriesOther4xxOrRateLimits() {
        for error: UpstreamError in [.status(400, retryAfterSeconds: nil), .status(404, retryAfterSeconds: nil), .status(403, retryAfterSeconds: nil), .rateLimited(retryAfterSeconds: 1)] {
            XCTAssertNil(policy.delay(beforeRetry: 1, after: error, unitRandom: 0), "\(error)")
        }
    }

    func testHonoursRetryAfterInsteadOfBackoff() {
        XCTAssertEqual(policy.delay(beforeRetry: 1, after: .status(429, retryAfterSeconds: 2), unitRandom: 0.5), .seconds(2))
    }

    func testRetryAfterBeyondTheLimitIsNotWaitedFor() {
        XCTAssertNil(policy.delay(beforeRetry: 1, after: .status(503, retryAfterSeconds: 60), unitRandom: 0))
    }
}

func XCTAssertEqual(_ a: Duration, _ b: Duration, accuracy: Duration, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertLessThanOrEqual(abs(a - b), accuracy, "\(a) vs \(b)", file: file, line: line)
}

func abs(_ duration: Duration) -> Duration { duration < .zero ? .zero - duration : duration }
