// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTPTestSupport
import NetCore
import StreamServiceConcurrency
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// The listener accepts on an event loop (its own readiness source there, no thread of its own),
/// on both engines, over real sockets on 127.0.0.1.
final class ListenerTests: XCTestCase {
    private let engines: [EventLoop.Engine] = {
        #if os(Linux)
        [.epoll, .dispatch]
        #else
        [.dispatch]
        #endif
    }()

    /// Accepted sockets (closed by the test) and whether every accept ran on the loop.
    private final class Accepted: Sendable {
        let sockets = Locked<[Socket]>([])
        let allOnLoop = Locked(true)

        func closeAll() { sockets.withLock { $0.forEach { $0.close() } } }
        var count: Int { sockets.withLock { $0.count } }
    }

    private func startListener(on loop: EventLoop, _ accepted: Accepted) throws -> Listener {
        let listener = try Listener(host: "127.0.0.1", port: 0, backlog: 1024, loop: loop) { socket, _ in
            accepted.allOnLoop.withLock { $0 = $0 && loop.inLoop }
            accepted.sockets.withLock { $0.append(socket) }
        }
        listener.start()
        return listener
    }

    func testConnectionsAreAcceptedOnTheListenersLoop() throws {
        for engine in engines {
            let loop = EventLoop(label: "listener.test", engine: engine)
            let accepted = Accepted()
            let listener = try startListener(on: loop, accepted)
            let clients = try (0..<3).map { _ in try RawHTTPClient(port: listener.port) }
            waitUntil("three accepted on \(engine)") { accepted.count == 3 }
            XCTAssertTrue(accepted.allOnLoop.withLock { $0 }, "\(engine)")
            XCTAssertEqual(clients.count, 3)
            accepted.closeAll()
            listener.stop()
        }
    }

    func testABurstLargerThanOneWakeupsShareIsAcceptedInFull() throws {
        for engine in engines {
            let loop = EventLoop(label: "listener.burst", engine: engine)
            let accepted = Accepted()
            let listener = try startListener(on: loop, accepted)
            let burst = Listener.acceptsPerWakeup * 3 + 5
            let clients = try (0..<burst).map { _ in try RawHTTPClient(port: listener.port) }
            waitUntil("\(burst) accepted on \(engine)", timeout: 5) { accepted.count == burst }
            XCTAssertEqual(clients.count, burst)
            accepted.closeAll()
            listener.stop()
        }
    }

    func testStoppingClosesTheListeningSocketBeforeItsCompletionRuns() throws {
        for engine in engines {
            let loop = EventLoop(label: "listener.stop", engine: engine)
            let listener = try startListener(on: loop, Accepted())
            let port = listener.port
            let stopped = expectation(description: "stopped on \(engine)")
            listener.stop { stopped.fulfill() }
            wait(for: [stopped], timeout: 2)
            XCTAssertThrowsError(try RawHTTPClient(port: port, timeout: 1), "still listening on \(engine)")
            // A second stop has nothing left to close and still completes.
            let again = expectation(description: "stopped again on \(engine)")
            listener.stop { again.fulfill() }
            wait(for: [again], timeout: 2)
        }
    }
}
