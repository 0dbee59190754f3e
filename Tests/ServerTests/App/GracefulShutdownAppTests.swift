// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import XCTest
@testable import Server
import HTTP
import HTTPTestSupport

final class GracefulShutdownAppTests: XCTestCase {
    func testShutdownAnswersInFlightRequestsAndEndsEventStreamsWithAShutdownEvent() throws {
        let app = try AppHarness(self) {
            $0.demoLatency = .milliseconds(300)
            $0.shutdownTimeout = .seconds(5)
        }
        let events = try SSETestClient(port: app.port, target: "/events?pipeline=clock")
        XCTAssertNotNil(try events.next())
        let slow = try app.client()
        try slow.send("GET /users/ada1 HTTP/1.1\r\nHost: localhost\r\n\r\n")
        let inFlight = expectation(description: "upstream request in flight")
        GaugePoller(port: app.port, metric: "upstream_in_flight", expected: 1, orMore: true, fulfil: inFlight).start()
        wait(for: [inFlight], timeout: 5)

        let stopped = expectation(description: "shutdown finished")
        let started = ContinuousClock.now
        app.application.shutdown { stopped.fulfill() }

        let answer = try slow.readResponse()
        XCTAssertEqual(answer.status, 200, answer.bodyText)
        XCTAssertEqual(answer.header("Connection"), "close")
        let last = try XCTUnwrap(events.nextEvent())
        XCTAssertEqual(last.event, "shutdown")
        XCTAssertNil(try events.next(), "the stream ends cleanly after the shutdown event")
        XCTAssertTrue(events.ended)
        wait(for: [stopped], timeout: 6)
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(5), "finished before the deadline")
        XCTAssertThrowsError(try app.get("/health"), "no longer accepting")
    }
}
