// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Foundation
import NetCore
import Streams
import XCTest
@testable import HTTP
import HTTPTestSupport

/// A request made on an event loop stays on that loop: its connection is one of that loop's
/// (reused or opened there), so the answer arrives on the caller's thread.
final class ClientLoopAffinityTests: XCTestCase {
    private let loops = [EventLoop(label: "test.affinity.a"), EventLoop(label: "test.affinity.b")]

    private func healthServer() throws -> TestServer {
        var router = Router()
        router.get("/ok") { _ in DataStream.just(Response.text("ok")) }
        return try TestServer(router: router)
    }

    /// Sends one request from `loop` and returns the loop its answer arrived on.
    private func answeringLoop(for url: URL, sentFrom loop: EventLoop, via client: HTTPClient) throws -> EventLoop? {
        let answered = expectation(description: "answered")
        let seen = Locked<EventLoop??>(nil)
        let bag = DisposeBag()
        loop.execute {
            client.send(HTTPClientRequest(url: url)).watch(
                data: { _ in seen.withLock { $0 = .some(EventLoop.current) } },
                error: { error in XCTFail("\(error)"); answered.fulfill() },
                end: { answered.fulfill() }
            ).disposed(by: bag)
        }
        wait(for: [answered], timeout: 5)
        return try XCTUnwrap(seen.withLock { $0 })
    }

    func testARequestMadeOnALoopIsAnsweredOnThatLoop() throws {
        let server = try healthServer()
        let url = URL(string: "http://127.0.0.1:\(server.port)/ok")!
        let client = HTTPClient()
        for loop in loops + loops {
            XCTAssertTrue(try answeringLoop(for: url, sentFrom: loop, via: client) === loop)
        }
    }

    func testEachLoopReusesItsOwnIdleConnection() throws {
        let server = try healthServer()
        let url = URL(string: "http://127.0.0.1:\(server.port)/ok")!
        let client = HTTPClient()
        // Alternating callers: most-recently-idle-first alone would hand each the other loop's connection.
        for loop in loops + loops + loops {
            XCTAssertTrue(try answeringLoop(for: url, sentFrom: loop, via: client) === loop)
        }
        waitUntil("both connections idle again") { client.idleConnections == 2 }
        XCTAssertEqual(client.pool.openCount(.init(secure: false, host: "127.0.0.1", port: server.port)), 2, "one connection per loop, no more")
    }

    /// Holds `/held/a` and `/held/b` until their gate opens; `/quick` answers at once.
    private final class Gates: Sendable {
        let a = ReplayStreamer<Response>(bufferSize: 1)
        let b = ReplayStreamer<Response>(bufferSize: 1)
        let arrived = Locked(0)

        var router: Router {
            var router = Router()
            router.get("/held/a") { [self] _ in arrived.withLock { $0 += 1 }; return a.asDataStream().take(1) }
            router.get("/held/b") { [self] _ in arrived.withLock { $0 += 1 }; return b.asDataStream().take(1) }
            router.get("/quick") { _ in DataStream.just(Response.text("quick")) }
            return router
        }
    }

    func testAFreedConnectionGoesToAWaiterOfItsOwnLoopBeforeAnOlderWaiterOfAnotherLoop() throws {
        let gates = Gates()
        let server = try TestServer(router: gates.router)
        let base = "http://127.0.0.1:\(server.port)"
        let origin = ConnectionPool.Origin(secure: false, host: "127.0.0.1", port: server.port)
        let client = HTTPClient(maxConnectionsPerOrigin: 2)
        let (a, b) = (loops[0], loops[1])
        let bag = DisposeBag()
        let order = Locked<[String]>([])
        let answeredOn = Locked<[String: EventLoop]>([:])
        let quick = expectation(description: "both quick requests answered")
        quick.expectedFulfillmentCount = 2
        func send(_ path: String, from loop: EventLoop, as name: String) {
            loop.execute {
                client.send(HTTPClientRequest(url: URL(string: base + path)!)).watch(
                    data: { _ in
                        order.withLock { $0.append(name) }
                        answeredOn.withLock { $0[name] = EventLoop.current }
                    },
                    error: { error in XCTFail("\(name): \(error)") },
                    end: { if path == "/quick" { quick.fulfill() } }
                ).disposed(by: bag)
            }
        }
        send("/held/a", from: a, as: "held on a")
        send("/held/b", from: b, as: "held on b")
        waitUntil("both connections busy at the server", timeout: 5) { gates.arrived.withLock { $0 } == 2 }
        send("/quick", from: b, as: "quick from b")
        waitUntil("b's request waits", timeout: 5) { client.pool.waitingCount(origin) == 1 }
        send("/quick", from: a, as: "quick from a")
        waitUntil("a's request waits behind it", timeout: 5) { client.pool.waitingCount(origin) == 2 }

        gates.a.data(.text("released"))
        wait(for: [quick], timeout: 5)
        XCTAssertEqual(order.withLock { $0 }, ["held on a", "quick from a", "quick from b"],
                       "a's connection served a's waiter first, then b's (b's own connection was still busy)")
        XCTAssertTrue(answeredOn.withLock { $0["quick from a"] } === a, "answered on the loop that asked")
        gates.b.data(.text("released"))
        waitUntil("both connections idle", timeout: 5) { client.idleConnections == 2 }
    }
}
