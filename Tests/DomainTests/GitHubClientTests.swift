// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import MetricsTestKit
import Streams
import StreamsTesting
import XCTest
@testable import Domain
@testable import DemoUpstream

final class GitHubClientTests: XCTestCase {
    let scheduler = TestScheduler()
    let base = URL(string: "http://demo.test")!
    /// What the clients made here emit through swift-metrics.
    let recorded = TestMetrics()

    func client(_ transport: any UpstreamTransport, retry: RetryPolicy = RetryPolicy(maxRetries: 3, baseDelay: .milliseconds(10), jitter: 0), timeout: Duration = .seconds(1), deadline: Duration = .seconds(10), token: String? = nil) -> GitHubClient {
        GitHubClient(
            configuration: .init(baseURL: base, token: token, timeout: timeout, retry: retry, deadline: deadline),
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
        XCTAssertEqual(recorder.error as? UpstreamFailure, UpstreamFailure(.status(404, retryAfterSeconds: nil), stage: .user("nobody")))
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
        XCTAssertEqual(recorder.error as? UpstreamFailure, UpstreamFailure(.rateLimited(retryAfterSeconds: 30), stage: .repos("ada1")))
        XCTAssertEqual(transport.requests.count, 1)
    }

    func testGivesUpAfterTheLastRetryWithTheLastError() {
        let transport = ScriptedTransport([json(502), json(502), json(502), json(502), json(200)])
        let recorder = EventRecorder<GitHubUser>()
        recorder.watch(client(transport).user(login: "ada1"))
        scheduler.run()
        XCTAssertEqual(recorder.error as? UpstreamFailure, UpstreamFailure(.status(502, retryAfterSeconds: nil), stage: .user("ada1"), retries: 3))
        XCTAssertEqual(transport.requests.count, 4)
    }

    func testAttemptWithoutAnswerTimesOut() {
        let transport = ScriptedTransport([.hang])
        let recorder = EventRecorder<GitHubUser>()
        recorder.watch(client(transport, retry: .none, timeout: .milliseconds(300)).user(login: "ada1"))
        scheduler.advance(by: .milliseconds(299))
        XCTAssertFalse(recorder.isTerminated)
        scheduler.advance(by: .milliseconds(1))
        XCTAssertEqual(recorder.error as? UpstreamFailure, UpstreamFailure(.timeout(after: .milliseconds(300)), stage: .user("ada1")))
    }

    func testTheDeadlineCutsRetriesAndBackOffShortAndSaysSo() {
        // Six retries of 300 ms attempts with 10-20-40… ms back-off would take about 2.4 s.
        let transport = ScriptedTransport([])
        let recorder = EventRecorder<GitHubUser>()
        let retry = RetryPolicy(maxRetries: 6, baseDelay: .milliseconds(10), jitter: 0)
        recorder.watch(client(transport, retry: retry, timeout: .milliseconds(300), deadline: .seconds(1)).user(login: "ada1"))
        scheduler.advance(by: .milliseconds(999))
        XCTAssertFalse(recorder.isTerminated)
        scheduler.advance(by: .milliseconds(1))
        // Attempts at 0, 310, 630 and 970 ms: three retries spent when the deadline cuts the fourth attempt.
        XCTAssertEqual(recorder.error as? UpstreamFailure, UpstreamFailure(.deadlineExceeded(after: .seconds(1)), stage: .user("ada1"), retries: 3))
        XCTAssertEqual(transport.requests.count, 4)
    }

    func testRetriesThatFitInsideTheDeadlineEndWithThePerAttemptTimeout() {
        let transport = ScriptedTransport([])
        let recorder = EventRecorder<GitHubUser>()
        let retry = RetryPolicy(maxRetries: 1, baseDelay: .milliseconds(10), jitter: 0)
        recorder.watch(client(transport, retry: retry, timeout: .milliseconds(300), deadline: .seconds(10)).user(login: "ada1"))
        scheduler.advance(by: .milliseconds(610))
        XCTAssertEqual(recorder.error as? UpstreamFailure, UpstreamFailure(.timeout(after: .milliseconds(300)), stage: .user("ada1"), retries: 1))
    }

    func testARetryIsAnnouncedWithItsBackOffInWords() {
        let hub = PipelineEventHub()
        let transport = ScriptedTransport([json(503), json(200, #"{"login":"ada1","id":1,"avatar_url":"x","name":null}"#)])
        let recorder = EventRecorder<GitHubUser>()
        recorder.watch(client(transport).user(login: "ada1", trace: PipelineTrace(hub: hub, pipeline: "profile", requestId: "r1")))
        scheduler.run()
        let details = hub.recorded(after: 0).compactMap { delivery -> String? in
            if case .event(let event) = delivery, event.kind == .retry { return event.detail }
            return nil
        }
        XCTAssertEqual(details, ["retry 1 in 10 ms after upstream answered 503"])
    }

    func testTheDeadlineIsNotRetried() {
        XCTAssertFalse(UpstreamError.deadlineExceeded(after: .seconds(10)).isRetryable)
        XCTAssertTrue(UpstreamError.timeout(after: .seconds(5)).isRetryable)
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

    func testRedirectIsFollowedAndEachHopIsRetriedOnItsOwn() {
        let transport = ScriptedTransport([
            .respond(UpstreamResponse(status: 302, headers: ["location": "http://avatars.test/u/1?v=4"])),
            json(503), .respond(UpstreamResponse(status: 200, headers: ["content-type": "image/png"], body: [7])),
        ])
        let recorder = EventRecorder<AvatarImage>()
        recorder.watch(client(transport, token: "secret").avatar(url: URL(string: "http://demo.test/ada1.png")!, login: "ada1"))
        scheduler.run()
        XCTAssertEqual(recorder.values, [AvatarImage(bytes: [7], contentType: "image/png")])
        XCTAssertEqual(transport.requests.map(\.url.absoluteString), ["http://demo.test/ada1.png", "http://avatars.test/u/1?v=4", "http://avatars.test/u/1?v=4"])
        XCTAssertEqual(transport.requests.map { $0.headers["Authorization"] }, ["Bearer secret", nil, nil], "no token to another origin")
    }

    func testRequestsCarryGitHubsDocumentedHeaders() {
        let transport = ScriptedTransport([json(200, "[]")])
        client(transport).users(since: 0, perPage: 1).watch { _ in }
        let headers = transport.requests.first?.headers ?? [:]
        XCTAssertEqual(headers["Accept"], "application/vnd.github+json")
        XCTAssertEqual(headers["X-GitHub-Api-Version"], "2022-11-28")
        XCTAssertEqual(headers["User-Agent"], "StreamService/\(ServiceIdentity.version)")
    }

    func testTokenIsNotSentToAnotherOriginOnTheSameHost() {
        let transport = ScriptedTransport([json(200, "{}")])
        let client = client(transport, token: "secret")
        client.avatar(url: URL(string: "http://demo.test:8443/u/1")!, login: "ada1").watch { _ in }
        client.avatar(url: URL(string: "https://demo.test/u/1")!, login: "ada1").watch { _ in }
        XCTAssertEqual(transport.requests.map { $0.headers["Authorization"] }, [nil, nil])
    }

    func testSecondaryRateLimitIsARateLimitNotRetriedWhenTheWaitIsLong() {
        let transport = ScriptedTransport([json(403, #"{"message":"You have exceeded a secondary rate limit."}"#, headers: ["retry-after": "60"])])
        let recorder = EventRecorder<GitHubUser>()
        recorder.watch(client(transport).user(login: "ada1"))
        scheduler.run()
        XCTAssertEqual(recorder.error as? UpstreamFailure, UpstreamFailure(.rateLimited(retryAfterSeconds: 60), stage: .user("ada1")))
        XCTAssertEqual(transport.requests.count, 1)
    }

    func testShortRateLimitWaitIsRetriedInsideTheRequest() {
        let transport = ScriptedTransport([json(429, headers: ["retry-after": "3"]), json(200, "[]")])
        let recorder = EventRecorder<[GitHubUser]>()
        recorder.watch(client(transport).users(since: 0, perPage: 1))
        scheduler.advance(by: .milliseconds(2999))
        XCTAssertEqual(transport.requests.count, 1)
        scheduler.advance(by: .milliseconds(1))
        XCTAssertEqual(recorder.values.count, 1)
    }

    func testPrimaryRateLimitWaitsUntilTheResetWithoutRetryAfter() {
        let reset = Int(Date().timeIntervalSince1970) + 600
        let answer = UpstreamResponse(status: 403, headers: ["x-ratelimit-remaining": "0", "x-ratelimit-reset": String(reset)])
        guard case .rateLimited(let seconds)? = UpstreamError(answer: answer) else { return XCTFail("not a rate limit") }
        XCTAssertEqual(Double(seconds), 600, accuracy: 2)
    }

    func testAPrimaryRateLimitResetFarAheadWaitsADayAtMostInsteadOfTrapping() {
        let answer = UpstreamResponse(status: 403, headers: ["x-ratelimit-remaining": "0", "x-ratelimit-reset": "1e300"])
        XCTAssertEqual(UpstreamError(answer: answer), .rateLimited(retryAfterSeconds: RateLimitReset.longestWait))
    }

    func testAPrimaryRateLimitResetThatIsNoNumberWaitsAMinute() {
        let answer = UpstreamResponse(status: 403, headers: ["x-ratelimit-remaining": "0", "x-ratelimit-reset": "nan"])
        XCTAssertEqual(UpstreamError(answer: answer), .rateLimited(retryAfterSeconds: 60))
    }

    func testRateLimitWithoutAnyHintWaitsAMinute() {
        XCTAssertEqual(UpstreamError(answer: UpstreamResponse(status: 429)), .rateLimited(retryAfterSeconds: 60))
    }

    func testPlainForbiddenIsAClientError() {
        XCTAssertEqual(UpstreamError(answer: UpstreamResponse(status: 403, body: Array(#"{"message":"Forbidden"}"#.utf8))), .status(403, retryAfterSeconds: nil))
    }

    func testFailureCountsTheRetriesSpent() {
        let transport = ScriptedTransport([json(500), json(500), json(404)])
        let recorder = EventRecorder<GitHubUser>()
        recorder.watch(client(transport).user(login: "ada1"))
        scheduler.run()
        XCTAssertEqual((recorder.error as? UpstreamFailure)?.retries, 2)
    }

    func testOptionalRepoFieldsMayBeAbsent() {
        let transport = ScriptedTransport([json(200, #"[{"id":1,"name":"a"},{"id":2,"name":"b","language":null,"stargazers_count":3}]"#)])
        let recorder = EventRecorder<[GitHubRepo]>()
        recorder.watch(client(transport).repos(login: "ada1"))
        scheduler.run()
        XCTAssertEqual(recorder.values.first, [GitHubRepo(id: 1, name: "a", language: nil, stargazersCount: nil), GitHubRepo(id: 2, name: "b", language: nil, stargazersCount: 3)])
    }

    func testReposFollowTheNextLinkUpToTheCap() {
        let page = { (id: Int) in "[{\"id\":\(id),\"name\":\"r\(id)\"}]" }
        let next = { (n: Int) in ["link": "<http://demo.test/users/ada1/repos?per_page=100&page=\(n)>; rel=\"next\""] }
        let transport = ScriptedTransport([json(200, page(1), headers: next(2)), json(200, page(2), headers: next(3)), json(200, page(3), headers: next(4))])
        let client = GitHubClient(
            configuration: .init(baseURL: base, retry: .none, maxRepoPages: 2), transport: transport, scheduler: scheduler, metrics: UpstreamMetrics())
        let recorder = EventRecorder<[GitHubRepo]>()
        recorder.watch(client.repos(login: "ada1"))
        scheduler.run()
        XCTAssertEqual(recorder.values.first?.map(\.id), [1, 2])
        XCTAssertEqual(transport.requests.map(\.target), ["/users/ada1/repos?per_page=100", "/users/ada1/repos?per_page=100&page=2"])
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
        XCTAssertTrue(recorder.ended)
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
