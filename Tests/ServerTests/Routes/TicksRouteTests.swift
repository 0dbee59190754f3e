// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import XCTest
@testable import Server
import HTTP
import HTTPTesting
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
        // 100 ms apart: "at once" gets a 100 ms margin, which a loaded 2-core CI host needs (tick 0
        // took 47 ms to arrive from before the connect, under a 40 ms spacing, on one run).
        let feed = try SSETestClient(port: app.port, target: "/ticks?everyMs=100&count=3")
        var arrivals: [Duration] = []
        while let message = try feed.nextEvent() {
            arrivals.append(ContinuousClock.now - started)
            XCTAssertEqual(message.id, String(arrivals.count - 1))
        }
        XCTAssertEqual(arrivals.count, 3)
        for (k, arrival) in arrivals.enumerated() {
            XCTAssertGreaterThanOrEqual(arrival, .milliseconds(100 * k - 2), "tick \(k) came early")
        }
        XCTAssertLessThan(arrivals[0], .milliseconds(100), "tick 0 is due at once")
    }

    func testLastEventIDResumesWithTheNextTick() throws {
        let app = try AppHarness(self)
        let feed = try SSETestClient(port: app.port, target: "/ticks?everyMs=10&count=5", headers: ["Last-Event-ID": "2"])
        XCTAssertEqual(try feed.all().map(\.data), ["tick 3", "tick 4"])
    }

    // The route's own answers, before a tick is sent: read in process (`RouterTestClient.service()`).

    func testLastEventIDOfTheFinalTickGets204SoTheClientStopsReconnecting() async throws {
        let response = try await RouterTestClient.service().execute(.get, "/ticks?everyMs=10&count=5", headers: ["Last-Event-ID": "4"])
        XCTAssertEqual(response.status, .noContent)
    }

    func testInvalidEveryMsIs400ProblemNamingTheParameter() async throws {
        let response = try await RouterTestClient.service().execute(.get, "/ticks?everyMs=fast&count=3")
        XCTAssertEqual(response.status, .badRequest)
        XCTAssertEqual(response.headers["Content-Type"], "application/problem+json")
        XCTAssertTrue(response.bodyText.contains("'everyMs'"), response.bodyText)
    }

    func testEveryMsBelowTheTenMillisecondFloorIs400NamingTheFloor() async throws {
        let service = RouterTestClient.service()
        for everyMs in ["1", "9"] {
            let response = try await service.execute(.get, "/ticks?everyMs=\(everyMs)&count=3")
            XCTAssertEqual(response.status, .badRequest, everyMs)
            XCTAssertEqual(response.headers["Content-Type"], "application/problem+json")
            XCTAssertTrue(response.bodyText.contains("Query parameter 'everyMs' must be an integer from 10 to 60000, got '\(everyMs)'"), response.bodyText)
        }
        let floor = try await service.execute(.get, "/ticks?everyMs=10&count=1")
        XCTAssertEqual(floor.status, .ok, "the floor itself is allowed")
        let body = String(decoding: try await floor.readBody(), as: UTF8.self)
        XCTAssertTrue(body.contains("data: tick 0"), "and its one tick is sent: \(body)")
    }

    func testCountOutOfRangeIs400ProblemNamingTheParameter() async throws {
        let response = try await RouterTestClient.service().execute(.get, "/ticks?everyMs=10&count=0")
        XCTAssertEqual(response.status, .badRequest)
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
