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
}
