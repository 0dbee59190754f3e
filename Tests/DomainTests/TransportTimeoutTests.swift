// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import DemoUpstream
import Foundation
import HTTP
import Streams
import XCTest
@testable import Domain

/// Over the wire: a call to a demo upstream that answers far too late fails the same way whether
/// the HTTP client keeps each attempt's timeout (`TimeoutKeeping.transport`, the default) or a
/// `timeout` stage after `send` does (`.stage`), over HTTP/1.1 and over HTTP/2 (h2c). (What an
/// abandoned exchange lets go of: `HTTPClientTimeoutTests`, `HTTP2ClientTests`.)
final class TransportTimeoutTests: XCTestCase {
    private var demo: DemoUpstreamServer!
    private var port = 0

    override func setUpWithError() throws {
        demo = DemoUpstreamServer(configuration: .init(users: 5, latency: .seconds(30)))
        port = try demo.start()
    }

    override func tearDown() {
        demo.stop(deadline: .milliseconds(100))
        demo = nil
    }

    /// The final failure of one `/users/ada1` call.
    private func failure(
        http2: HTTP2ClientSettings.Mode, timeouts: GitHubClient.TimeoutKeeping, timeout: Duration, deadline: Duration
    ) async throws -> UpstreamFailure? {
        let http = HTTPClient(http2: HTTP2ClientSettings(mode: http2))
        let client = GitHubClient(
            configuration: .init(
                baseURL: URL(string: "http://127.0.0.1:\(port)")!, timeout: timeout,
                retry: RetryPolicy(maxRetries: 1, baseDelay: .milliseconds(10), jitter: 0), deadline: deadline, singleFlight: false),
            transport: HTTPUpstreamTransport(client: http), scheduler: CurrentLoopScheduler(), metrics: UpstreamMetrics(),
            deadlineKeeping: .bounds, timeoutKeeping: timeouts)
        XCTAssertEqual(client.transportKeepsTimeouts, timeouts == .transport)
        do {
            _ = try await client.get(URL(string: "http://127.0.0.1:\(port)/users/ada1")!, stage: .user("ada1"), trace: nil).first()
            XCTFail("answered")
            return nil
        } catch {
            return error as? UpstreamFailure
        }
    }

    func testAnAttemptTimeoutFailsTheCallAsTheStageTwinDoesOverBothProtocols() async throws {
        for http2: HTTP2ClientSettings.Mode in [.off, .priorKnowledge] {
            for timeouts: GitHubClient.TimeoutKeeping in [.transport, .stage] {
                let failure = try await failure(http2: http2, timeouts: timeouts, timeout: .milliseconds(150), deadline: .seconds(10))
                XCTAssertEqual(failure, UpstreamFailure(.timeout(after: .milliseconds(150)), stage: .user("ada1"), retries: 1), "\(http2), \(timeouts)")
            }
        }
    }

    func testADeadlineShorterThanTheAttemptTimeoutFailsTheCallAsTheStageTwinDoesOverBothProtocols() async throws {
        for http2: HTTP2ClientSettings.Mode in [.off, .priorKnowledge] {
            for timeouts: GitHubClient.TimeoutKeeping in [.transport, .stage] {
                let failure = try await failure(http2: http2, timeouts: timeouts, timeout: .seconds(10), deadline: .milliseconds(150))
                XCTAssertEqual(failure, UpstreamFailure(.deadlineExceeded(after: .milliseconds(150)), stage: .user("ada1")), "\(http2), \(timeouts)")
            }
        }
    }
}
