// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Domain
import XCTest
@testable import Server
import HTTP
import NetCore

/// Problem details name the stage that failed and mention retries only when some were spent.
final class UpstreamProblemTests: XCTestCase {
    func problem(_ error: UpstreamError, _ stage: UpstreamStage, retries: Int = 0) -> HTTPError {
        UpstreamProblem.httpError(for: UpstreamFailure(error, stage: stage, retries: retries), subject: "the user list")
    }

    func testAFailureAfterRetriesSaysHowMany() {
        let error = problem(.status(502, retryAfterSeconds: nil), .users, retries: 6)
        XCTAssertEqual(error.status.code, 502)
        XCTAssertEqual(error.detail, "The upstream answered 502 for the user list, after 6 retries")
    }

    func testAFailureWithoutRetriesDoesNotClaimAny() {
        let error = problem(.status(302, retryAfterSeconds: nil), .avatar("ada1"))
        XCTAssertEqual(error.detail, "The upstream answered 302 for the avatar of ada1")
    }

    func testNotFoundIsAnUnknownUserOnlyWhereTheStageIsAboutTheUser() {
        XCTAssertEqual(problem(.status(404, retryAfterSeconds: nil), .user("nobody")).status.code, 404)
        XCTAssertEqual(problem(.status(404, retryAfterSeconds: nil), .repos("nobody")).detail, "Unknown user: nobody")
        XCTAssertEqual(problem(.status(404, retryAfterSeconds: nil), .avatar("ada1")).status.code, 502)
    }

    func testRateLimitIs503WithRetryAfterNamingTheStage() {
        let error = problem(.rateLimited(retryAfterSeconds: 60), .user("ada1"))
        XCTAssertEqual(error.status.code, 503)
        XCTAssertEqual(error.headers["Retry-After"], "60")
        XCTAssertTrue(error.detail.contains("user ada1"), error.detail)
    }

    func testAnAttemptTimeoutIs504NamingThePerAttemptTimeoutInWords() {
        let error = problem(.timeout(after: .nanoseconds(16_413_882)), .repos("ada1"), retries: 2)
        XCTAssertEqual(error.status.code, 504)
        XCTAssertEqual(error.detail, "The upstream did not answer within 16 ms (the per-attempt timeout) for the repositories of ada1, after 2 retries")
    }

    func testThePassedDeadlineIs504NamingTheDeadline() {
        let error = problem(.deadlineExceeded(after: .milliseconds(1500)), .users, retries: 3)
        XCTAssertEqual(error.status.code, 504)
        XCTAssertEqual(error.detail, "The upstream gave no usable answer within 1.5 s (the deadline of the whole call) for the user list, after 3 retries")
    }

    func testAConnectionClosedEarlyIsDescribedInWordsNotByAnEnumCase() {
        let error = problem(.connection("connection closed before the response was complete (\(ByteStream.CloseReason.peerClosed))"), .users)
        XCTAssertFalse(error.detail.contains("peerClosed"), error.detail)
        XCTAssertTrue(error.detail.contains("the peer closed the connection"), error.detail)
    }
}
