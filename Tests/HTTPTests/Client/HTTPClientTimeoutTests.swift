// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import StreamServiceConcurrency
import Streams
import XCTest
@testable import HTTP
import HTTPTestSupport

/// `HTTPClientRequest.timeout` over HTTP/1.1, against a real server on 127.0.0.1 whose `/never`
/// never answers: past it the exchange fails with `timedOut` and is abandoned as a dispose
/// abandons it (its connection closed, or its place in the queue left).
final class HTTPClientTimeoutTests: XCTestCase {
    private var server: TestServer!

    override func setUpWithError() throws {
        var router = Router()
        router.get("/never") { _ in .never() }
        router.get("/hello") { _ in .just(.text("hello")) }
        server = try TestServer(router: router)
    }

    override func tearDown() {
        server = nil
    }

    private func request(_ path: String, timeout: Duration? = nil) -> HTTPClientRequest {
        HTTPClientRequest(url: URL(string: "http://127.0.0.1:\(server.port)\(path)")!, timeout: timeout)
    }

    func testAnExchangeOutlastingItsTimeoutFailsWithTimedOutAndClosesItsConnection() {
        let client = HTTPClient()
        let started = ContinuousClock.now
        XCTAssertEqual(outcome(of: request("/never", timeout: .milliseconds(150)), via: client), .failure(.timedOut(after: .milliseconds(150))))
        XCTAssertGreaterThanOrEqual(ContinuousClock.now - started, .milliseconds(150))
        let server = server.server
        waitUntil("the abandoned connection closed") { server.openConnections == 0 }
        XCTAssertEqual(client.openConnections(to: request("/").url), 0)
    }

    func testAnAnswerWithinTheTimeoutIsDeliveredAndItsConnectionKept() throws {
        let client = HTTPClient()
        let response = try outcome(of: request("/hello", timeout: .seconds(5)), via: client).get()
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "hello")
        XCTAssertEqual(client.idleConnections, 1)
        XCTAssertEqual(try outcome(of: request("/hello", timeout: .seconds(5)), via: client).get().status, .ok, "the kept connection serves the next")
    }

    func testAnExchangeEndingFirstLeavesNoTimeoutArmed() throws {
        let client = HTTPClient()
        let answers = outcomes(of: (0..<3).map { _ in request("/hello", timeout: .seconds(5)) }, via: client)
        XCTAssertEqual(try answers.map { try $0.get().status }, [.ok, .ok, .ok])
        XCTAssertEqual(client.armedTimeouts, 0, "each answered exchange cleared its entry")
    }

    func testADisposedExchangeLeavesNoTimeoutArmed() {
        let client = HTTPClient()
        let subscription = client.send(request("/never", timeout: .seconds(5))).watch { _ in }
        XCTAssertEqual(client.armedTimeouts, 1)
        subscription.dispose()
        XCTAssertEqual(client.armedTimeouts, 0)
    }

    func testAShorterTimeoutArmedAfterALongerOneStillEndsItsExchangeInTime() {
        let client = HTTPClient()
        let longerEnded = Locked(false)
        let held = client.send(request("/never", timeout: .seconds(5))).watch(
            data: { _ in longerEnded.withLock { $0 = true } }, error: { _ in longerEnded.withLock { $0 = true } })
        defer { held.dispose() }
        let started = ContinuousClock.now
        XCTAssertEqual(outcome(of: request("/never", timeout: .milliseconds(150)), via: client), .failure(.timedOut(after: .milliseconds(150))))
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(2), "not held behind the longer timeout")
        XCTAssertFalse(longerEnded.withLock { $0 }, "the longer one still waits")
    }

    func testALongerTimeoutArmedAfterAShorterOneEndsItsExchangeNoEarlier() {
        let client = HTTPClient()
        let shorter = client.send(request("/never", timeout: .milliseconds(100))).watch { _ in }
        defer { shorter.dispose() }
        let started = ContinuousClock.now
        XCTAssertEqual(outcome(of: request("/never", timeout: .milliseconds(400)), via: client), .failure(.timedOut(after: .milliseconds(400))))
        XCTAssertGreaterThanOrEqual(ContinuousClock.now - started, .milliseconds(400), "its own timeout, not the one armed before it")
    }

    func testTheWaitForAConnectionCountsAgainstTheTimeout() {
        let client = HTTPClient(maxConnectionsPerOrigin: 1)
        let held = client.send(request("/never")).watch { _ in }
        defer { held.dispose() }
        XCTAssertEqual(outcome(of: request("/hello", timeout: .milliseconds(150)), via: client), .failure(.timedOut(after: .milliseconds(150))))
        XCTAssertEqual(client.pool.waitingCount(.init(secure: false, host: "127.0.0.1", port: server.port)), 0, "the queue was left")
    }
}
