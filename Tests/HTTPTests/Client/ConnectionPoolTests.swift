// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Foundation
import NetCore
import Streams
import XCTest
@testable import HTTP
import HTTPTestSupport

/// The client's per-origin connection cap, over real sockets: a test server counts the
/// connections it accepts while the client sends bursts of requests.
final class ConnectionPoolTests: XCTestCase {
    /// Tracks the server's open-connection count: every accept and the peak.
    private final class ConnectionCounter: Sendable {
        private struct Counts { var open = 0, peak = 0, accepted = 0 }
        private let counts = Locked(Counts())

        var observer: HTTPServerObserver {
            HTTPServerObserver(connectionsChanged: { [self] open in
                counts.withLock { counts in
                    if open > counts.open { counts.accepted += open - counts.open }
                    counts.open = open
                    counts.peak = max(counts.peak, open)
                }
            })
        }

        var peak: Int { counts.withLock { $0.peak } }
        var accepted: Int { counts.withLock { $0.accepted } }
    }

    private func url(_ server: TestServer, _ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(server.port)\(path)")!
    }

    /// Sends `count` requests at once and waits for every answer.
    private func burst(_ count: Int, to url: URL, headers: HTTPHeaders = HTTPHeaders(), via client: HTTPClient) -> [Result<HTTPClientResponse, Error>] {
        let results = Locked<[Result<HTTPClientResponse, Error>]>([])
        let done = expectation(description: "\(count) answers")
        done.expectedFulfillmentCount = count
        let bag = DisposeBag()
        for _ in 0..<count {
            client.send(HTTPClientRequest(url: url, headers: headers)).watch(
                data: { response in results.withLock { $0.append(.success(response)) } },
                error: { error in results.withLock { $0.append(.failure(error)) }; done.fulfill() },
                end: { done.fulfill() }
            ).disposed(by: bag)
        }
        wait(for: [done], timeout: 20)
        return results.withLock { $0 }
    }

    private func slowRouter(delay: Duration) -> Router {
        var router = Router()
        let scheduler = QueueScheduler(label: "test.slow")
        router.get("/slow") { _ in DataStream.just(Response.text("slow")).delay(delay, scheduler: scheduler) }
        return router
    }

    func testABurstOpensNoMoreConnectionsThanTheCap() throws {
        let counter = ConnectionCounter()
        let server = try TestServer(router: slowRouter(delay: .milliseconds(20)), observer: counter.observer)
        let client = HTTPClient(maxConnectionsPerOrigin: 4)
        let results = burst(40, to: url(server, "/slow"), via: client)
        XCTAssertEqual(results.count, 40)
        XCTAssertEqual(results.filter { (try? $0.get().status) == .ok }.count, 40, "every request is answered")
        XCTAssertLessThanOrEqual(counter.peak, 4)
        XCTAssertLessThanOrEqual(counter.accepted, 4, "waiting requests reuse the capped connections")
        XCTAssertEqual(client.idleConnections, counter.accepted, "all connections idle again")
    }

    func testABurstFromSeveralLoopsOpensNoMoreConnectionsThanTheCap() throws {
        let counter = ConnectionCounter()
        let server = try TestServer(router: slowRouter(delay: .milliseconds(5)), observer: counter.observer)
        let client = HTTPClient(maxConnectionsPerOrigin: 3)
        let loops = (0..<3).map { EventLoop(label: "test.pool.burst.\($0)") }
        let target = url(server, "/slow")
        let answered = Locked(0)
        let done = expectation(description: "90 answers")
        done.expectedFulfillmentCount = 90
        let bag = DisposeBag()
        for index in 0..<90 {
            loops[index % 3].execute {
                client.send(HTTPClientRequest(url: target)).watch(
                    data: { response in if response.status == .ok { answered.withLock { $0 += 1 } } },
                    error: { error in XCTFail("\(error)"); done.fulfill() },
                    end: { done.fulfill() }
                ).disposed(by: bag)
            }
        }
        wait(for: [done], timeout: 20)
        XCTAssertEqual(answered.withLock { $0 }, 90, "every request is answered")
        XCTAssertLessThanOrEqual(counter.peak, 3, "never more open at once than the cap, whichever loops ask")
        XCTAssertLessThanOrEqual(client.pool.openCount(.init(secure: false, host: "127.0.0.1", port: server.port)), 3)
    }

    func testTheDefaultCapIsSixtyFourPerOrigin() throws {
        let counter = ConnectionCounter()
        let server = try TestServer(router: slowRouter(delay: .milliseconds(50)), observer: counter.observer)
        let client = HTTPClient()
        let results = burst(200, to: url(server, "/slow"), via: client)
        XCTAssertEqual(results.filter { (try? $0.get().status) == .ok }.count, 200)
        XCTAssertLessThanOrEqual(counter.accepted, 64)
        XCTAssertGreaterThan(counter.accepted, 1, "requests still overlap on several connections")
    }

    func testAClosedConnectionPassesItsPlaceToTheNextWaitingRequest() throws {
        let counter = ConnectionCounter()
        let server = try TestServer(router: slowRouter(delay: .milliseconds(5)), observer: counter.observer)
        let client = HTTPClient(maxConnectionsPerOrigin: 1)
        let results = burst(5, to: url(server, "/slow"), headers: ["Connection": "close"], via: client)
        XCTAssertEqual(results.filter { (try? $0.get().status) == .ok }.count, 5)
        XCTAssertEqual(counter.accepted, 5, "each request after a closed connection opens a new one")
        XCTAssertEqual(client.idleConnections, 0)
    }

    func testAConnectionIdleForItsSecondTimeStillLeavesThePoolWhenTheServerClosesIt() throws {
        let counter = ConnectionCounter()
        let server = try TestServer(router: TestServer.standardRouter, observer: counter.observer) { configuration in
            configuration.timeouts.idle = .milliseconds(300)
        }
        let client = HTTPClient(maxConnectionsPerOrigin: 1)
        let origin = ConnectionPool.Origin(secure: false, host: "127.0.0.1", port: server.port)
        // Two answers on one connection: checked in twice, its idle watch made once and kept.
        for _ in 0..<2 { XCTAssertEqual(burst(1, to: url(server, "/hello"), via: client).filter { (try? $0.get().status) == .ok }.count, 1) }
        XCTAssertEqual(counter.accepted, 1)
        XCTAssertEqual(client.idleConnections, 1)
        waitUntil("the server's idle close is seen by the pool", timeout: 5) { client.pool.openCount(origin) == 0 }
        XCTAssertEqual(client.idleConnections, 0)
    }

    /// Holds `/held` answers until `release` is called; the replay lets late requests through at once.
    private final class Gate: Sendable {
        let answers = ReplayStreamer<Response>(bufferSize: 1)
        let arrived = Locked(0)
        func release() { answers.data(.text("released")) }
    }

    private func heldRouter(_ gate: Gate) -> Router {
        var router = Router()
        router.get("/held") { _ in
            gate.arrived.withLock { $0 += 1 }
            return gate.answers.asDataStream().take(1)
        }
        return router
    }

    func testAWaitingRequestDisposedBeforeItsTurnNeverSends() throws {
        let gate = Gate()
        let counter = ConnectionCounter()
        let server = try TestServer(router: heldRouter(gate), observer: counter.observer)
        let client = HTTPClient(maxConnectionsPerOrigin: 1)

        let first = expectation(description: "first answered")
        let held = client.send(HTTPClientRequest(url: url(server, "/held"))).watch(data: { _ in first.fulfill() })
        let queuedEvents = Locked<[String]>([])
        let queued = client.send(HTTPClientRequest(url: url(server, "/held")))
            .watch { event in queuedEvents.withLock { $0.append("\(event)") } }
        queued.dispose()

        waitUntil("the first request reached the server") { gate.arrived.withLock { $0 } == 1 }
        gate.release()
        wait(for: [first], timeout: 5)
        held.dispose()

        let third = expectation(description: "a later request answered")
        let later = client.send(HTTPClientRequest(url: url(server, "/held"))).watch(data: { _ in third.fulfill() })
        wait(for: [third], timeout: 5)
        later.dispose()
        XCTAssertEqual(queuedEvents.withLock { $0 }, [], "the disposed request got nothing")
        XCTAssertEqual(gate.arrived.withLock { $0 }, 2, "the disposed request was never sent")
        XCTAssertEqual(counter.accepted, 1, "the one connection was reused")
    }

    func testWaitingLongerThanTheConnectTimeoutFails() throws {
        let gate = Gate()
        let server = try TestServer(router: heldRouter(gate))
        let client = HTTPClient(connectTimeout: .milliseconds(200), maxConnectionsPerOrigin: 1)
        let held = client.send(HTTPClientRequest(url: url(server, "/held"))).watch { _ in }
        let failed = expectation(description: "the waiting request failed")
        let failure = Locked<Error?>(nil)
        let started = ContinuousClock.now
        let waiting = client.send(HTTPClientRequest(url: url(server, "/held"))).watch(error: { error in
            failure.withLock { $0 = error }
            failed.fulfill()
        })
        wait(for: [failed], timeout: 5)
        let waited = ContinuousClock.now - started
        guard case .connection(let reason)? = failure.withLock({ $0 }) as? HTTPClientError else {
            return XCTFail("expected a connection error, got \(String(describing: failure.withLock { $0 }))")
        }
        XCTAssertTrue(reason.contains("became free"), reason)
        XCTAssertGreaterThanOrEqual(waited, .milliseconds(200))
        gate.release()
        held.dispose()
        waiting.dispose()
    }
}
