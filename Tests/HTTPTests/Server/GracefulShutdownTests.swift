// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Dispatch
import Foundation
import Streams
import XCTest
@testable import HTTP
import HTTPTestSupport
import StreamServiceConcurrency

final class GracefulShutdownTests: XCTestCase {
    func testInFlightRequestsAreAllAnsweredAndStreamsEndWithTheirTrailer() throws {
        let clients = 5
        let arrived = expectation(description: "every slow request reached its handler")
        arrived.expectedFulfillmentCount = clients
        let release = DispatchSemaphore(value: 0)
        let feed = Streamer<[UInt8]>()
        var router = Router()
        router.get("/slow") { _ in
            DataStream { watcher in
                arrived.fulfill()
                DispatchQueue.global().async {
                    _ = release.wait(timeout: .now() + 5)
                    watcher.data(.text("done")); watcher.end()
                }
                return Disposable()
            }
        }
        router.get("/events") { _ in
            .just(.stream(feed.asDataStream(), contentType: "text/event-stream", shutdownTrailer: Array("event: shutdown\ndata: bye\n\n".utf8)))
        }
        let server = try TestServer(router: router)

        let sse = try server.client()
        try sse.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try sse.readResponse(forHead: true)
        let slow = try (0..<clients).map { _ in try server.client() }
        for client in slow { try client.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n") }
        let idle = try server.client()
        try idle.send("GET /events HTTP/1.0\r\n\r\n") // (closes when the stream ends, like the SSE one)
        wait(for: [arrived], timeout: 5)

        let stopped = expectation(description: "shutdown completed")
        server.server.shutdown(deadline: .seconds(5)) { stopped.fulfill() }
        XCTAssertTrue(server.server.isShuttingDown)
        // The latecomer sends its request: a handshake the closing listener had half done is reset only
        // when data reaches it (silent until the read timeout in 1 of 400 tries), and a 2 s read keeps
        // any wait well inside the 5 s deadline the in-flight requests rely on.
        XCTAssertThrowsError(try {
            let latecomer = try RawHTTPClient(port: server.port, timeout: 2)
            try latecomer.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = try latecomer.readResponse()
        }(), "new connections are refused") { error in
            if case RawHTTPClient.Failure.timedOut = error { XCTFail("a new connection was held open, neither answered nor refused") }
        }
        for _ in 0..<clients { release.signal() }

        for client in slow {
            let response = try client.readResponse()
            XCTAssertEqual(response.status, 200)
            XCTAssertEqual(response.bodyText, "done")
            XCTAssertEqual(response.header("Connection"), "close")
            XCTAssertTrue(client.waitForClose())
        }
        XCTAssertEqual(try sse.readChunk(), Array("event: shutdown\ndata: bye\n\n".utf8))
        XCTAssertNil(try sse.readChunk())
        XCTAssertTrue(sse.waitForClose())
        wait(for: [stopped], timeout: 5)
        XCTAssertEqual(server.server.openConnections, 0)
    }

    func testShutdownCompletesAtTheDeadlineWhenAHandlerNeverAnswers() throws {
        let arrived = expectation(description: "request reached its handler")
        var router = Router()
        router.get("/never") { _ in DataStream { _ in arrived.fulfill(); return Disposable() } }
        let server = try TestServer(router: router)
        let client = try server.client()
        try client.send("GET /never HTTP/1.1\r\nHost: x\r\n\r\n")
        wait(for: [arrived], timeout: 5)
        let stopped = expectation(description: "shutdown completed")
        server.server.shutdown(deadline: .milliseconds(200)) { stopped.fulfill() }
        wait(for: [stopped], timeout: 5)
        XCTAssertTrue(client.waitForClose())
    }
}

final class ShutdownDeadlineTests: XCTestCase {
    func testARequestStillWaitingForItsHandlerAtTheDeadlineGets503AndConnectionClose() throws {
        let arrived = expectation(description: "request reached its handler")
        var router = Router()
        router.get("/never") { _ in DataStream { _ in arrived.fulfill(); return Disposable() } }
        router.get("/hello") { _ in .just(.text("hello")) }
        let reports = Locked<[ShutdownDeadline]>([])
        let observer = HTTPServerObserver(shutdownDeadlineReached: { report in reports.withLock { $0.append(report) } })
        let server = try TestServer(router: router, observer: observer)
        let client = try server.client()
        let idle = try server.client()
        try client.send("GET /never HTTP/1.1\r\nHost: x\r\n\r\n")
        wait(for: [arrived], timeout: 5)
        // A request of an idle keep-alive connection that began before the shutdown.
        try idle.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try idle.readResponse().status, 200)
        let stopped = expectation(description: "shutdown completed")
        server.server.shutdown(deadline: .milliseconds(200)) { stopped.fulfill() }
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 503)
        XCTAssertEqual(response.header("Connection"), "close")
        XCTAssertTrue(response.bodyText.contains("shutting down"), response.bodyText)
        XCTAssertTrue(client.waitForClose())
        wait(for: [stopped], timeout: 5)
        XCTAssertEqual(reports.withLock { $0 }, [ShutdownDeadline(answered: 1)])
    }

    func testAResponseStillQueuedForASlowReaderAtTheDeadlineIsCountedAsCut() throws {
        var router = Router()
        // 8 MB: more than the sockets' buffers take while the client reads nothing.
        router.get("/big") { _ in .just(Response(status: .ok, headers: ["Content-Type": "application/octet-stream"], body: .bytes([UInt8](repeating: 1, count: 8 << 20)))) }
        let answered = expectation(description: "the response was handed to the connection")
        let reports = Locked<[ShutdownDeadline]>([])
        let observer = HTTPServerObserver(
            requestCompleted: { _ in answered.fulfill() },
            shutdownDeadlineReached: { report in reports.withLock { $0.append(report) } })
        let server = try TestServer(router: router, observer: observer)
        let client = try server.client()
        try client.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
        wait(for: [answered], timeout: 5)
        let stopped = expectation(description: "shutdown completed")
        server.server.shutdown(deadline: .milliseconds(200)) { stopped.fulfill() }
        wait(for: [stopped], timeout: 5)
        XCTAssertEqual(reports.withLock { $0 }, [ShutdownDeadline(cut: 1)])
    }
}
