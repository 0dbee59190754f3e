import Domain
import XCTest
@testable import Server
import HTTP

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

    func testTimeoutIs504() {
        XCTAssertEqual(problem(.timeout, .repos("ada1"), retries: 2).detail, "The upstream did not answer in time for the repositories of ada1, after 2 retries")
    }
}
