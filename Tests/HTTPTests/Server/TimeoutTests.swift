// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Dispatch
import XCTest
@testable import HTTP
import HTTPTestSupport

final class TimeoutTests: XCTestCase {
    private func shortTimeouts(_ configuration: inout HTTPServerConfiguration) {
        configuration.timeouts.header = .milliseconds(300)
        configuration.timeouts.idle = .milliseconds(200)
    }

    func testSlowlorisClientIsCutOffAtTheHeaderTimeoutWith408() throws {
        let server = try TestServer(router: TestServer.standardRouter, configure: shortTimeouts)
        let client = try server.client()
        let started = DispatchTime.now()
        // One byte every 50 ms: each byte arrives well within any per-read timeout,
        // but the headers would take seconds to complete.
        let bytes = Array("GET /hello HTTP/1.1\r\nHost: x\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n\r\n".utf8)
        let drip = DripFeeder(client: client, bytes: bytes, interval: .milliseconds(50))
        drip.start()
        defer { drip.stop() }
        let response = try client.readResponse()
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        XCTAssertEqual(response.status, 408)
        XCTAssertTrue(client.waitForClose())
        XCTAssertGreaterThanOrEqual(elapsed, 0.3)
        XCTAssertLessThan(elapsed, 2.0)
    }

    func testConnectionThatSendsNothingIsClosedAtTheHeaderTimeoutWithoutAResponse() throws {
        let server = try TestServer(router: TestServer.standardRouter, configure: shortTimeouts)
        let client = try server.client()
        XCTAssertTrue(client.waitForClose())
        XCTAssertTrue(client.unread.isEmpty)
    }

    func testIdleKeepAliveConnectionIsClosedAtTheIdleTimeout() throws {
        let server = try TestServer(router: TestServer.standardRouter, configure: shortTimeouts)
        let client = try server.client()
        try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try client.readResponse().status, 200)
        let idleFrom = DispatchTime.now()
        XCTAssertTrue(client.waitForClose())
        let idle = Double(DispatchTime.now().uptimeNanoseconds - idleFrom.uptimeNanoseconds) / 1e9
        XCTAssertGreaterThanOrEqual(idle, 0.15)
        XCTAssertLessThan(idle, 2.0)
    }

    func testActiveKeepAliveConnectionOutlivesTheIdleTimeout() throws {
        let server = try TestServer(router: TestServer.standardRouter) { $0.timeouts.idle = .milliseconds(300) }
        let client = try server.client()
        let until = DispatchTime.now().uptimeNanoseconds + 700_000_000
        var requests = 0
        // Keep busy for longer than the idle timeout; each request resets it.
        while DispatchTime.now().uptimeNanoseconds < until && requests < 100_000 {
            try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(try client.readResponse().status, 200)
            requests += 1
        }
        XCTAssertGreaterThan(requests, 1)
    }
}

/// Sends bytes one at a time on a timer (a slowloris attack), from a background queue.
final class DripFeeder: @unchecked Sendable { // @unchecked: state touched only on its private serial queue
    private let queue = DispatchQueue(label: "drip")
    private let timer: DispatchSourceTimer
    private var remaining: [UInt8]
    private let client: RawHTTPClient

    init(client: RawHTTPClient, bytes: [UInt8], interval: DispatchTimeInterval) {
        self.client = client
        remaining = bytes
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now(), repeating: interval)
    }

    func start() {
        timer.setEventHandler { [self] in
            guard !remaining.isEmpty, (try? client.send([remaining.removeFirst()])) != nil else { timer.cancel(); return }
        }
        timer.resume()
    }

    func stop() {
        queue.sync { timer.cancel() }
    }
}

final class BodyTimeoutTests: XCTestCase {
    func testAStalledBodyIsAnswered408AtTheBodyTimeoutNotTheHeaderTimeout() throws {
        let server = try TestServer(router: TestServer.standardRouter) {
            $0.timeouts.header = .seconds(10)
            $0.timeouts.body = .milliseconds(300)
        }
        let client = try server.client()
        let started = DispatchTime.now()
        try client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nab")
        let response = try client.readResponse()
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        XCTAssertEqual(response.status, 408)
        XCTAssertTrue(response.bodyText.contains("The request's body was not received within 300 ms of its headers"), response.bodyText)
        XCTAssertGreaterThanOrEqual(elapsed, 0.3)
        XCTAssertLessThan(elapsed, 2.0)
        XCTAssertTrue(client.waitForClose())
    }
}
