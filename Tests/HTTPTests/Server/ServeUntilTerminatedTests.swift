// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTestSupport
import StreamServiceConcurrency
import Streams
import XCTest
import HTTP

/// `serveUntilTerminated` serves until SIGTERM, then shuts down gracefully: a streamed response
/// ends with its trailer, and the call returns.
final class ServeUntilTerminatedTests: XCTestCase {
    override func tearDown() {
        // The watcher leaves SIGTERM ignored when it stops; the test process gets its default back.
        signal(SIGTERM, SIG_DFL)
    }

    func testSIGTERMEndsAStreamWithItsTrailerAndReturns() throws {
        var router = Router()
        router.get("/hello") { _ in .just(.text("hello")) }
        router.get("/feed") { _ in
            .just(.stream(DataStream<[UInt8]>.never().startWith(Array(": open\n\n".utf8)), contentType: "text/event-stream", shutdownTrailer: Array("event: bye\n\n".utf8)))
        }
        let server = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0), router: router)
        let port = Locked<Int?>(nil)
        let listening = DispatchSemaphore(value: 0)
        let returned = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            do {
                try server.serveUntilTerminated(shutdownDeadline: .seconds(5)) { bound in
                    port.withLock { $0 = bound }
                    listening.signal()
                }
            } catch {
                XCTFail("serveUntilTerminated threw \(error)")
            }
            returned.signal()
        }
        XCTAssertEqual(listening.wait(timeout: .now() + 10), .success)
        let bound = try XCTUnwrap(port.withLock { $0 })
        let hello = try RawHTTPClient(port: bound)
        try hello.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try hello.readResponse().bodyText, "hello")

        let feed = try RawHTTPClient(port: bound)
        try feed.send("GET /feed HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try feed.readResponse(forHead: true).status, 200)
        XCTAssertEqual(try feed.readChunk(), Array(": open\n\n".utf8))
        kill(getpid(), SIGTERM)
        XCTAssertEqual(String(decoding: try feed.readChunkedBody(), as: UTF8.self), "event: bye\n\n")
        XCTAssertEqual(returned.wait(timeout: .now() + 10), .success, "serveUntilTerminated did not return after SIGTERM")
    }
}
