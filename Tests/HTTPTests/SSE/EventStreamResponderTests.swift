// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTestSupport
import Streams
import XCTest
import HTTP

/// The library's SSE responder over a real connection: what it sends before, during and at the
/// end of a feed.
final class EventStreamResponderTests: XCTestCase {
    private let feed = Streamer<ServerSentEvent>()

    private func server() throws -> TestServer {
        var router = Router()
        let responder = EventStreamResponder(heartbeat: nil, subscribers: nil)
        let feed = self.feed
        router.get("/feed") { _ in .just(responder.response(feed.asDataStream())) }
        return try TestServer(router: router)
    }

    private func subscribe(to server: TestServer) throws -> (RawHTTPClient, RawHTTPClient.Response) {
        let client = try server.client()
        try client.send("GET /feed HTTP/1.1\r\nHost: x\r\n\r\n")
        return (client, try client.readResponse(forHead: true))
    }

    func testTheHeadKeepsProxiesFromCachingOrBufferingTheFeed() throws {
        let server = try server()
        let (_, head) = try subscribe(to: server)
        XCTAssertEqual(head.header("Content-Type"), "text/event-stream; charset=utf-8")
        XCTAssertEqual(head.header("Cache-Control"), "no-store")
        XCTAssertEqual(head.header("X-Accel-Buffering"), "no")
    }

    func testTheFirstMessageSetsTheReconnectionDelayThenEventsFollow() throws {
        let server = try server()
        let (client, _) = try subscribe(to: server)
        XCTAssertEqual(String(decoding: try XCTUnwrap(client.readChunk()), as: UTF8.self), "retry: 2000\n\n")
        let feed = self.feed
        waitUntil("the stream watches the feed") { feed.watcherCount == 1 }
        feed.data(ServerSentEvent(id: "7", data: "hello"))
        XCTAssertEqual(String(decoding: try XCTUnwrap(client.readChunk()), as: UTF8.self), "id: 7\ndata: hello\n\n")
    }

    func testAGracefulShutdownSendsTheShutdownEventAndEndsTheStream() throws {
        let server = try server()
        let (client, _) = try subscribe(to: server)
        _ = try client.readChunk()
        server.stop()
        XCTAssertEqual(String(decoding: try client.readChunkedBody(), as: UTF8.self), "event: shutdown\ndata: server shutting down\n\n")
    }
}
