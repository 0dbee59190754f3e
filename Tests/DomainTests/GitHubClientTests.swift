import Foundation
import MetricsTestKit
import Streams
import XCTest
@testable import Domain

final class GitHubClientTests: XCTestCase {
    let scheduler = TestScheduler()
    let base = URL(string: "http://demo.test")!
    /// What the clients made here emit through swift-metrics.
    let recorded = TestMetrics()

    func client(_ transport: any UpstreamTransport, retry: RetryPolicy = RetryPolicy(maxRetries: 3, baseDelay: .milliseconds(10), jitter: 0), timeout: Duration = .seconds(1), token: String? = nil) -> GitHubClient {
        GitHubClient(
            configuration: .init(baseURL: base, token: token, timeout: timeout, retry: retry),
            transport: transport, scheduler: scheduler, metrics: UpstreamMetrics(factory: recorded))
    }

    func demo(users: Int = 20, failureRate: Double = 0) -> DemoUpstreamTransport {
        DemoUpstreamTransport(upstream: DemoUpstream(configuration: .init(users: users, failureRate: failureRate), scheduler: scheduler))
    }

    func json(_ status: Int, _ body: String = "{}", headers: [String: String] = [:]) -> ScriptedTransport.Step {
        .respond(UpstreamResponse(status: status, headers: headers.merging(["content-type": "application/json"]) { a, _ in a }, body: Array(body.utf8)))
    }

    func testUsersPageDecodesFromTheDemoUpstream() {
        let recorder = EventRecorder<[GitHubUser]>()
        recorder.watch(client(demo()).users(since: 0, perPage: 3))
        scheduler.run()
        XCTAssertEqual(recorder.values.first?.map(\.login), ["ada1", "grace2", "alan3"])
        XCTAssertTrue(recorder.ended)
    }

    func testServerErrorsAreRetriedUntilSuccess() throws {
        let transport = ScriptedTransport([json(503), json(500), json(200, #"{"login":"ada1","id":1,"avatar_url":"x","name":null}"#)])
        let recorder = EventRecorder<GitHubUser>()
        let client = client(transport)
        recorder.watch(client.user(login: "ada1"))
        scheduler.run()
        XCTAssertEqual(recorder.values.map(\.id), [1])
        XCTAssertEqual(transport.requests.count, 3)
        XCTAssertEqual(try retries(), 2)
        XCTAssertEqual(try requests(.serverError), 2)
        XCTAssertEqual(try requests(.success), 1)
    }

    func testRetriesWaitWithExponentialBackoff() {
        let transport = ScriptedTransport([.fail(.connection("refused")), .fail(.connection("refused")), json(200, "[]")])
        client(transport).users(since: 0, perPage: 1).watch { _ in }
        XCTAssertEqual(transport.requests.count, 1)
        scheduler.advance(by: .milliseconds(10))
        XCTAssertEqual(transport.requests.count, 2)
        scheduler.advance(by: .milliseconds(19))
        XCTAssertEqual(transport.requests.count, 2)
        scheduler.advance(by: .milliseconds(1))
        XCTAssertEqual(transport.requests.count, 3)
    }

    func testNotFoundIsNotRetried() {
        let transport = ScriptedTransport([json(404, #"{"message":"Not Found"}"#)])
        let recorder = EventRecorder<GitHubUser>()
        recorder.watch(client(transport).user(login: "nobody"))
        scheduler.run()
        XCTAssertEqual(recorder.error as? UpstreamError, .status(404, retryAfterSeconds: nil))
        XCTAssertEqual(transport.requests.count, 1)
    }

    func testTooManyRequestsHonoursRetryAfter() {
        let transport = ScriptedTransport([json(429, headers: ["retry-after": "2"]), json(200, "[]")])
        client(transport).repos(login: "ada1").watch { _ in }
        scheduler.advance(by: .milliseconds(1999))
        XCTAssertEqual(transport.requests.count, 1)
        scheduler.advance(by: .milliseconds(1))
        XCTAssertEqual(transport.requests.count, 2)
    }

    func testRateLimitAnswerBecomesATypedErrorWithoutRetry() {
        let transport = ScriptedTransport([json(403, headers: ["x-ratelimit-remaining": "0", "retry-after": "30"])])
        let recorder = EventRecorder<[GitHubRepo]>()
        recorder.watch(client(transport).repos(login: "ada1"))
        scheduler.run()
        XCTAssertEqual(recorder.error as? UpstreamError, .rateLimited(retryAfterSeconds: 30))
        XCTAssertEqual(transport.requests.count, 1)
    }

    func testGivesUpAfterTheLastRetryWithTheLastError() {
        let transport = ScriptedTransport([json(502), json(502), json(502), json(502), json(200)])
        let recorder = EventRecorder<GitHubUser>()
        recorder.watch(client(transport).user(login: "ada1"))
        scheduler.run()
        XCTAssertEqual(recorder.error as? UpstreamError, .status(502, retryAfterSeconds: nil))
        XCTAssertEqual(transport.requests.count, 4)
    }

    func testAttemptWithoutAnswerTimesOut() {
        let transport = ScriptedTransport([.hang])
        let recorder = EventRecorder<GitHubUser>()
        recorder.watch(client(transport, retry: .none, timeout: .milliseconds(300)).user(login: "ada1"))
        scheduler.advance(by: .milliseconds(299))
        XCTAssertFalse(recorder.isTerminated)
        scheduler.advance(by: .milliseconds(1))
        XCTAssertEqual(recorder.error as? UpstreamError, .timeout)
    }

    func testDisposingCancelsAPendingRetry() throws {
        let transport = ScriptedTransport([json(500), json(200, "[]")])
        let client = client(transport)
        client.users(since: 0, perPage: 1).watch { _ in }.dispose()
        scheduler.run()
        XCTAssertEqual(transport.requests.count, 1)
        XCTAssertEqual(try inFlight(), 0)
    }

    func testDisposingAnAttemptInFlightCountsItCancelled() throws {
        let client = client(ScriptedTransport([.hang]))
        let subscription = client.users(since: 0, perPage: 1).watch { _ in }
        XCTAssertEqual(try inFlight(), 1)
        subscription.dispose()
        XCTAssertEqual(try inFlight(), 0)
        XCTAssertEqual(try requests(.cancelled), 1)
    }

    func testTokenIsSentAsBearerAuthorization() {
        let transport = ScriptedTransport([json(200, "[]")])
        client(transport, token: "secret").users(since: 0, perPage: 1).watch { _ in }
        XCTAssertEqual(transport.requests.first?.headers["Authorization"], "Bearer secret")
    }

    func testRequestTargetCarriesSinceAndPerPage() {
        let transport = ScriptedTransport([json(200, "[]")])
        client(transport).users(since: 7, perPage: 5).watch { _ in }
        XCTAssertEqual(transport.requests.first?.target, "/users?since=7&per_page=5")
    }

    func testProbeReportsFalseWhenTheUpstreamCannotBeReached() {
        let recorder = EventRecorder<Bool>()
        recorder.watch(client(ScriptedTransport([.fail(.connection("refused"))])).probe())
        XCTAssertEqual(recorder.values, [false])
    }

    func testAnAttemptIsCountedByOutcomeAndTimed() throws {
        let metrics = UpstreamMetrics(factory: recorded)
        metrics.attemptStarted()
        metrics.attemptFinished(.success, seconds: 0.02)
        XCTAssertEqual(try requests(.success), 1)
        XCTAssertEqual(try recorded.expectTimer(UpstreamMetrics.durationName).values, [20_000_000])
        XCTAssertEqual(try inFlight(), 0)
        XCTAssertEqual(try retries(), 0)
    }

    func testEveryOutcomeIsCountedFromZeroBeforeTheFirstAttempt() throws {
        _ = UpstreamMetrics(factory: recorded)
        for outcome in UpstreamMetrics.Outcome.allCases {
            XCTAssertEqual(try requests(outcome), 0, outcome.rawValue)
        }
    }

    private func requests(_ outcome: UpstreamMetrics.Outcome) throws -> Int64 {
        try recorded.expectCounter(UpstreamMetrics.requestsName, [("outcome", outcome.rawValue)]).totalValue
    }

    private func retries() throws -> Int64 {
        try recorded.expectCounter(UpstreamMetrics.retriesName).totalValue
    }

    private func inFlight() throws -> Double? {
        try recorded.expectMeter(UpstreamMetrics.inFlightName).lastValue
    }
}
