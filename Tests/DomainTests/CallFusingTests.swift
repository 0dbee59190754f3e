// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import MetricsTestKit
import Streams
import StreamsTesting
import Synchronization
import XCTest
@testable import Domain

/// A call with its stages fused (`GitHubClient.CallFusing.fused`, `UpstreamCallRun`) runs as its
/// slow twin, the operators' composition (`.operators`), in virtual time: the same marbles
/// downstream, each attempt subscribed and disposed at the same instants, the same metrics and
/// the same pipeline events.
final class CallFusingTests: XCTestCase {
    /// Answers each request with the next of its marble diagrams (`-` 10 ms; `a` 200, `s` 503,
    /// `t` 429 asking for a 1 s wait, `n` 404, `b` 302 to /b, `#` a connection reset); a request
    /// past the last diagram never answers. Keeps each answer's subscriptions.
    final class MarbleTransport: UpstreamTransport {
        static let values: [Character: UpstreamResponse] = [
            "a": UpstreamResponse(status: 200, body: Array("{}".utf8)),
            "s": UpstreamResponse(status: 503),
            "t": UpstreamResponse(status: 429, headers: ["retry-after": "1"]),
            "n": UpstreamResponse(status: 404),
            "b": UpstreamResponse(status: 302, headers: ["location": "/b"]),
        ]
        private let scheduler: TestScheduler
        private let state: Mutex<(diagrams: [String], answers: [ColdStream<UpstreamResponse>], paths: [String])>

        init(_ diagrams: [String], scheduler: TestScheduler) {
            self.scheduler = scheduler
            state = Mutex((diagrams, [], []))
        }

        /// Each request's path, then the subscriptions to its answer (`^` and `!` as marbles).
        var requests: [String] {
            state.withLock { state in zip(state.paths, state.answers).map { "\($0) \($1.subscriptions)" } }
        }

        func send(_ request: UpstreamRequest) -> DataStream<UpstreamResponse> {
            let answer = state.withLock { state in
                let diagram = state.diagrams.isEmpty ? "-" : state.diagrams.removeFirst()
                let answer = scheduler.coldStream(diagram, values: Self.values, error: UpstreamError.connection("reset"))
                state.answers.append(answer)
                state.paths.append(request.url.path)
                return answer
            }
            return answer.asDataStream()
        }
    }

    struct Run: Equatable {
        var diagram: String
        var failure: UpstreamFailure?
        var requests: [String]
        var outcomes: [String: Int64]
        var retries: Int64
        var events: [String]
    }

    static let retry = RetryPolicy(maxRetries: 3, baseDelay: .milliseconds(30), jitter: 0)

    /// The call's run: subscribed at 0, disposed at `disposed` ms unless it ended before.
    func run(_ answers: [String], _ fusing: GitHubClient.CallFusing, disposed: Int = 2_000, retry: RetryPolicy = retry) throws -> Run {
        try run(answers, fusing, disposed: disposed, retry: retry, symbol: { "\($0.status)" }) { client, trace in
            client.get(URL(string: "http://demo.test/users")!, stage: .users, trace: trace)
        }
    }

    /// The run of the stream `make` makes of a client over the transport answering `answers`.
    func run<Element: Sendable>(
        _ answers: [String], _ fusing: GitHubClient.CallFusing, disposed: Int, retry: RetryPolicy, symbol: (Element) -> String,
        _ make: @escaping @Sendable (GitHubClient, PipelineTrace) -> DataStream<Element>
    ) throws -> Run {
        let scheduler = TestScheduler()
        let transport = MarbleTransport(answers, scheduler: scheduler)
        let metrics = TestMetrics()
        let client = GitHubClient(
            configuration: .init(baseURL: URL(string: "http://demo.test")!, timeout: .milliseconds(100), retry: retry, deadline: .seconds(1), singleFlight: false),
            transport: transport, scheduler: scheduler, metrics: UpstreamMetrics(factory: metrics), deadlineKeeping: .bounds, callFusing: fusing)
        let hub = PipelineEventHub()
        let trace = PipelineTrace(hub: hub, pipeline: "users", requestId: "r1")
        let recorder = scheduler.start(created: 0, subscribed: 0, disposed: disposed) { make(client, trace) }
        var outcomes: [String: Int64] = [:]
        for outcome in UpstreamMetrics.Outcome.allCases {
            outcomes[outcome.rawValue] = try metrics.expectCounter(UpstreamMetrics.requestsName, [("outcome", outcome.rawValue)]).totalValue
        }
        let events = hub.recorded(after: 0).compactMap { delivery -> String? in
            guard case .event(let event) = delivery else { return nil }
            return "\(event.kind) \(event.stage) \(event.detail ?? "")"
        }
        return Run(
            diagram: recorder.diagram(symbol: symbol), failure: recorder.events.last?.event.error as? UpstreamFailure,
            requests: transport.requests, outcomes: outcomes, retries: try metrics.expectCounter(UpstreamMetrics.retriesName).totalValue, events: events)
    }

    func assertTwinsAgree(_ answers: [String], disposed: Int = 2_000, retry: RetryPolicy = retry, file: StaticString = #filePath, line: UInt = #line) throws -> Run {
        let fused = try run(answers, .fused, disposed: disposed, retry: retry)
        XCTAssertEqual(fused, try run(answers, .operators, disposed: disposed, retry: retry), file: file, line: line)
        return fused
    }

    /// As `assertTwinsAgree`, for one user's avatar outcome under `policy` (its fetch, trace and recovery).
    func assertAvatarTwinsAgree(_ answers: [String], policy: UsersQuery.AvatarErrorPolicy, disposed: Int = 2_000, file: StaticString = #filePath, line: UInt = #line) throws -> Run {
        let user = AvatarAttachment(GitHubUser(login: "ada1", id: 1, avatarUrl: "http://demo.test/ada1.png"), index: 0, query: UsersQuery(onAvatarError: policy))
        let runs = try [GitHubClient.CallFusing.fused, .operators].map { fusing in
            try run(answers, fusing, disposed: disposed, retry: RetryPolicy(maxRetries: 1, baseDelay: .milliseconds(30), jitter: 0), symbol: { "\($0.user?.avatar.bytes ?? -1)" }) { client, trace in
                UsersWithAvatarsPipeline(client: client).avatarOutcome(user, trace: trace)
            }
        }
        XCTAssertEqual(runs[0], runs[1], file: file, line: line)
        return runs[0]
    }

    func testAnAnswerAtOnceIsTheOperatorsAnswer() throws {
        let fused = try assertTwinsAgree(["--a|"])
        XCTAssertEqual(fused.diagram, "--200|")
        XCTAssertEqual(fused.requests, ["/users [(0 ms, 30 ms)]"])
    }

    func testRetriesAfterFailedStatusesAndResetsAreTheOperatorsRetries() throws {
        let fused = try assertTwinsAgree(["-s|", "-#", "--a|"])
        // Waits of 30 and 60 ms after the answers at 10 and 50 ms.
        XCTAssertEqual(fused.diagram, "-------------200|")
        XCTAssertEqual(fused.retries, 2)
    }

    func testAWaitTheUpstreamAskedForIsTheOperatorsWait() throws {
        _ = try assertTwinsAgree(["-t|", "-a|"])
    }

    func testAStatusNotRetriedFailsAsTheOperatorsFail() throws {
        let fused = try assertTwinsAgree(["-n|"])
        XCTAssertEqual(fused.failure?.error, .status(404, retryAfterSeconds: nil))
    }

    func testRetriesSpentFailAsTheOperatorsFail() throws {
        let fused = try assertTwinsAgree(["-s|", "-s|", "-s|", "-s|"])
        XCTAssertEqual(fused.failure?.retries, 3)
    }

    func testAttemptsTimedOutAndCutByTheDeadlineAreTheOperatorsAttempts() throws {
        let fused = try assertTwinsAgree([], retry: RetryPolicy(maxRetries: 20, baseDelay: .milliseconds(30), jitter: 0))
        XCTAssertEqual(fused.failure?.error, .deadlineExceeded(after: .seconds(1)))
    }

    func testARedirectFollowedIsTheOperatorsRedirect() throws {
        let fused = try assertTwinsAgree(["-b|", "-s|", "--a|"])
        XCTAssertEqual(fused.requests.map { $0.split(separator: " ")[0] }, ["/users", "/b", "/b"])
    }

    func testDisposedMidAttemptIsDisposedAsTheOperatorsAre() throws {
        let fused = try assertTwinsAgree(["-s|", "-----a|"], disposed: 60)
        XCTAssertEqual(fused.diagram, "")
        XCTAssertEqual(fused.outcomes["cancelled"], 1)
    }

    func testDisposedMidWaitIsDisposedAsTheOperatorsAre() throws {
        let fused = try assertTwinsAgree(["-s|", "-a|"], disposed: 20)
        XCTAssertEqual(fused.requests.count, 1)
    }

    func testAFetchedAvatarIsTheOperatorsOutcomeAndTrace() throws {
        let fused = try assertAvatarTwinsAgree(["--a|"], policy: .fail)
        XCTAssertEqual(fused.events.map { $0.prefix(9) }, ["subscribe", "data avat", "end avata"])
    }

    func testAFailedAvatarRecoveredUnderEachPolicyIsTheOperatorsRecovery() throws {
        for policy in UsersQuery.AvatarErrorPolicy.allCases {
            let fused = try assertAvatarTwinsAgree(["-s|", "-n|"], policy: policy)
            XCTAssertEqual(fused.events.last?.prefix(12), "error avatar", "\(policy)")
        }
    }

    func testAnAvatarDisposedMidFetchIsTheOperatorsDisposal() throws {
        let fused = try assertAvatarTwinsAgree(["-----a|"], policy: .placeholder, disposed: 20)
        XCTAssertEqual(fused.events.last, "dispose avatar ")
    }
}
