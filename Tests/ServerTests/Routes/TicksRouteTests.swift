// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import XCTest
@testable import Server
import HTTP
import HTTPTestSupport

final class TicksRouteTests: XCTestCase {
    func testSendsCountTicksWithIdsAndDataThenEnds() throws {
        let app = try AppHarness(self)
        let feed = try SSETestClient(port: app.port, target: "/ticks?everyMs=10&count=5")
        XCTAssertEqual(feed.status, 200)
        let messages = try feed.all()
        XCTAssertEqual(messages.map(\.id), ["0", "1", "2", "3", "4"])
        XCTAssertEqual(messages.map(\.data), ["tick 0", "tick 1", "tick 2", "tick 3", "tick 4"])
        XCTAssertTrue(feed.ended, "the chunked response ends after the last tick")
    }

    func testEventStreamHeadersAreSet() throws {
        let app = try AppHarness(self)
        let feed = try SSETestClient(port: app.port, target: "/ticks?everyMs=10&count=1", headers: ["Accept-Encoding": "gzip"])
        XCTAssertEqual(feed.headers["content-type"], "text/event-stream; charset=utf-8")
        XCTAssertEqual(feed.headers["cache-control"], "no-store")
        XCTAssertEqual(feed.headers["x-accel-buffering"], "no")
        XCTAssertNil(feed.headers["content-encoding"], "an event stream is never gzipped")
    }

    func testTickKArrivesNoEarlierThanKTimesEveryMsAfterTheRequest() throws {
        let app = try AppHarness(self)
        let started = ContinuousClock.now
        let feed = try SSETestClient(port: app.port, target: "/ticks?everyMs=40&count=4")
        var arrivals: [Duration] = []
        while let message = try feed.nextEvent() {
            arrivals.append(ContinuousClock.now - started)
            XCTAssertEqual(message.id, String(arrivals.count - 1))
        }
        XCTAssertEqual(arrivals.count, 4)
        for (k, arrival) in arrivals.enumerated() {
            XCTAssertGreaterThanOrEqual(arrival, .milliseconds(40 * k - 2), "tick \(k) came early")
        }
        XCTAssertLessThan(arrivals[0], .milliseconds(40), "tick 0 is due at once")
    }

    func testLastEventIDResumesWithTheNextTick() throws {
        let app = try AppHarness(self)
        let feed = try SSETestClient(port: app.port, target: "/ticks?everyMs=10&count=5", headers: ["Last-Event-ID": "2"])
        XCTAssertEqual(try feed.all().map(\.data), ["tick 3", "tick 4"])
    }

    func testLastEventIDOfTheFinalTickGets204SoTheClientStopsReconnecting() throws {
        let app = try AppHarness(self)
        let response = try app.get("/ticks?everyMs=10&count=5", headers: ["Last-Event-ID": "4"])
        XCTAssertEqual(response.status, 204)
    }

    func testInvalidEveryMsIs400ProblemNamingTheParameter() throws {
        let app = try AppHarness(self)
        let response = try app.get("/ticks?everyMs=fast&count=3")
        XCTAssertEqual(response.status, 400)
        XCTAssertEqual(response.header("Content-Type"), "application/problem+json")
        XCTAssertTrue(response.bodyText.contains("'everyMs'"), response.bodyText)
    }

    func testEveryMsBelowTheTenMillisecondFloorIs400NamingTheFloor() throws {
        let app = try AppHarness(self)
        for everyMs in ["1", "9"] {
            let response = try app.get("/ticks?everyMs=\(everyMs)&count=3")
            XCTAssertEqual(response.status, 400, everyMs)
            XCTAssertEqual(response.header("Content-Type"), "application/problem+json")
            XCTAssertTrue(response.bodyText.contains("Query parameter 'everyMs' must be an integer from 10 to 60000, got '\(everyMs)'"), response.bodyText)
        }
        XCTAssertEqual(try app.get("/ticks?everyMs=10&count=1").status, 200, "the floor itself is allowed")
    }

    func testCountOutOfRangeIs400ProblemNamingTheParameter() throws {
        let app = try AppHarness(self)
        let response = try app.get("/ticks?everyMs=10&count=0")
        XCTAssertEqual(response.status, 400)
        XCTAssertTrue(response.bodyText.contains("'count'"), response.bodyText)
    }

    func testClientDisconnectDisposesTheTickPipeline() throws {
        let app = try AppHarness(self)
        var feed: SSETestClient? = try SSETestClient(port: app.port, target: "/ticks?everyMs=10&count=1000000")
        XCTAssertNotNil(try feed?.nextEvent())
        feed = nil // closes the socket
        let metricsClosed = expectation(description: "subscriber gauge back to 0")
        let poller = GaugePoller(port: app.port, metric: "sse_subscribers", expected: 0, fulfil: metricsClosed)
        poller.start()
        wait(for: [metricsClosed], timeout: 5)
    }
}
