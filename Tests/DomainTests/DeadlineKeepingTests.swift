// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import Streams
import StreamsTesting
import XCTest
@testable import Domain

/// A call's deadline kept by bounding its attempts and back-offs (`DeadlineKeeping.bounds`, the
/// default) ends every call as its slow twin does, a second `timeout` over the retries
/// (`.stage`): the same answer or failure, at the same virtual time, after as many requests.
final class DeadlineKeepingTests: XCTestCase {
    struct Outcome: Equatable {
        var statuses: [Int]
        var failure: UpstreamFailure?
        var at: Duration
        var requests: Int
        /// What each request asked the transport to keep (compared only where the test says).
        var timeouts: [UpstreamTimeout?] = []

        static func == (lhs: Outcome, rhs: Outcome) -> Bool {
            (lhs.statuses, lhs.failure, lhs.at, lhs.requests) == (rhs.statuses, rhs.failure, rhs.at, rhs.requests)
        }
    }

    struct Scenario {
        var name: String
        var steps: [ScriptedTransport.Step]
        var retry = RetryPolicy(maxRetries: 6, baseDelay: .milliseconds(10), jitter: 0)
        var timeout: Duration = .milliseconds(300)
        var deadline: Duration = .seconds(1)
    }

    static func answer(_ status: Int, headers: [String: String] = [:]) -> ScriptedTransport.Step {
        .respond(UpstreamResponse(status: status, headers: headers, body: Array("{}".utf8)))
    }

    let scenarios: [Scenario] = [
        Scenario(name: "attempts that never answer, cut by the deadline mid-attempt", steps: []),
        Scenario(name: "a back-off a server asked for, cut by the deadline", steps: [answer(503, headers: ["retry-after": "2"]), answer(200)]),
        Scenario(name: "retries that fit, then an answer", steps: [answer(500), .fail(.connection("reset")), answer(200)]),
        Scenario(name: "retries that fit, all failing", steps: [answer(502), answer(502), answer(502)], retry: RetryPolicy(maxRetries: 2, baseDelay: .milliseconds(10), jitter: 0)),
        Scenario(name: "the attempt timeout equal to the deadline", steps: [], timeout: .seconds(1)),
        Scenario(name: "the attempt timeout longer than the deadline", steps: [], timeout: .seconds(3)),
        Scenario(name: "timeouts that fit inside the deadline", steps: [], retry: RetryPolicy(maxRetries: 1, baseDelay: .milliseconds(10), jitter: 0), deadline: .seconds(10)),
        Scenario(name: "a back-off ending exactly at the deadline", steps: [.hang, answer(200)], retry: RetryPolicy(maxRetries: 3, baseDelay: .milliseconds(700), jitter: 0)),
        Scenario(name: "a status that is not retried", steps: [answer(404)]),
        Scenario(name: "a redirect, each hop its own call", steps: [answer(302, headers: ["location": "/elsewhere"]), .hang, answer(200)]),
    ]

    /// - Parameter timeouts: `.transport`: the scripted transport keeps each attempt's timeout on
    ///   the test's scheduler, as `HTTPClient` keeps it on its loop.
    func outcome(_ scenario: Scenario, _ keeping: GitHubClient.DeadlineKeeping, timeouts: GitHubClient.TimeoutKeeping = .transport) -> Outcome {
        let scheduler = TestScheduler()
        let transport = ScriptedTransport(scenario.steps, keepingTimeoutsOn: timeouts == .transport ? scheduler : nil)
        let client = GitHubClient(
            // Without single flight, whose shared requests are not kept to one caller's timeout (it keeps none).
            configuration: .init(
                baseURL: URL(string: "http://demo.test")!, timeout: scenario.timeout, retry: scenario.retry, deadline: scenario.deadline, singleFlight: false),
            transport: transport, scheduler: scheduler, metrics: UpstreamMetrics(), deadlineKeeping: keeping, timeoutKeeping: timeouts)
        let recorder = EventRecorder<UpstreamResponse>()
        recorder.watch(client.get(URL(string: "http://demo.test/users/ada1")!, stage: .user("ada1"), trace: nil))
        // A millisecond at a time, so the end is seen when it happens; bounded at 20 virtual seconds.
        while !recorder.isTerminated, scheduler.now < .seconds(20) {
            scheduler.advance(by: .milliseconds(1))
        }
        return Outcome(
            statuses: recorder.values.map(\.status), failure: recorder.error as? UpstreamFailure, at: scheduler.now, requests: transport.requests.count,
            timeouts: transport.requests.map(\.timeout))
    }

    func testTheDeadlineKeptByBoundsEndsEveryCallAsTheStageTwinDoes() {
        for scenario in scenarios {
            let bounds = outcome(scenario, .bounds)
            XCTAssertEqual(bounds, outcome(scenario, .stage), scenario.name)
            XCTAssertLessThan(bounds.at, .seconds(20), "\(scenario.name): the call ended")
        }
    }

    /// Each attempt's timeout kept by the transport (`TimeoutKeeping.transport`) ends every call as
    /// its slow twin does, a `timeout` stage after `send`, under either way of keeping the deadline.
    func testTimeoutsKeptByTheTransportEndEveryCallAsTheStageTwinDoes() {
        for scenario in scenarios {
            for keeping: GitHubClient.DeadlineKeeping in [.bounds, .stage] {
                XCTAssertEqual(outcome(scenario, keeping, timeouts: .transport), outcome(scenario, keeping, timeouts: .stage), "\(scenario.name), \(keeping)")
            }
        }
    }

    func testTheTransportKeepsTheAttemptTimeoutThenTheTimeLeftFailingWithTheDeadline() {
        let cut = outcome(scenarios[0], .bounds, timeouts: .transport)
        XCTAssertEqual(cut.timeouts, [.attempt(.milliseconds(300)), .attempt(.milliseconds(300)), .attempt(.milliseconds(300)),
                                      UpstreamTimeout(after: .milliseconds(30), failure: .deadlineExceeded(after: .seconds(1)))])
        XCTAssertEqual(outcome(scenarios[0], .bounds, timeouts: .stage).timeouts, [nil, nil, nil, nil], "the stage twin asks the transport for none")
    }

    func testAnAttemptCutByTheDeadlineFailsWithTheDeadlineAndIsNotRetried() {
        let cut = outcome(scenarios[0], .bounds)
        // Attempts at 0, 310, 630 and 970 ms: three retries spent when the deadline cuts the fourth.
        XCTAssertEqual(cut, Outcome(statuses: [], failure: UpstreamFailure(.deadlineExceeded(after: .seconds(1)), stage: .user("ada1"), retries: 3), at: .seconds(1), requests: 4))
    }
}
