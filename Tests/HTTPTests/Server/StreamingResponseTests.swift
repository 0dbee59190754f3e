// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Dispatch
import Foundation
import Streams
import XCTest
@testable import HTTP
import HTTPTestSupport

final class StreamingResponseTests: XCTestCase {
    func testStreamedBodyIsWrittenChunkedAsItArrives() throws {
        let feed = Streamer<[UInt8]>()
        var router = Router()
        router.get("/feed") { _ in .just(.stream(feed.asDataStream(), contentType: "text/plain")) }
        let server = try TestServer(router: router)
        let client = try server.client()
        try client.send("GET /feed HTTP/1.1\r\nHost: x\r\n\r\n")
        let head = try client.readResponse(forHead: true)
        XCTAssertEqual(head.header("Transfer-Encoding"), "chunked")
        XCTAssertNil(head.header("Content-Length"))
        waitForWatchers(feed, count: 1)
        feed.data(Array("one".utf8))
        XCTAssertEqual(try client.readChunk(), Array("one".utf8))
        feed.data(Array("two".utf8))
        XCTAssertEqual(try client.readChunk(), Array("two".utf8))
        feed.end()
        XCTAssertNil(try client.readChunk())
    }

    func testHTTP10StreamedBodyEndsWithTheConnection() throws {
        var router = Router()
        router.get("/feed") { _ in .just(.stream(.just(data: [Array("a".utf8), Array("b".utf8)]), contentType: "text/plain")) }
        let server = try TestServer(router: router)
        let client = try server.client()
        try client.send("GET /feed HTTP/1.0\r\n\r\n")
        let response = try client.readResponse()
        XCTAssertEqual(response.bodyText, "ab")
        XCTAssertEqual(response.header("Connection"), "close")
    }

    func testClientDisconnectDisposesTheBodySubscription() throws {
        let disposed = expectation(description: "body stream disposed")
        let started = expectation(description: "body stream watched")
        var router = Router()
        router.get("/forever") { _ in
            .just(.stream(DataStream { watcher in
                watcher.data(Array("first".utf8))
                started.fulfill()
                return Disposable { disposed.fulfill() }
            }, contentType: "text/plain"))
        }
        let server = try TestServer(router: router)
        var client: RawHTTPClient? = try server.client()
        try client!.send("GET /forever HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try client!.readResponse(forHead: true)
        XCTAssertEqual(try client!.readChunk(), Array("first".utf8))
        wait(for: [started], timeout: 5)
        client = nil // closes the socket
        wait(for: [disposed], timeout: 5)
    }

    func testClientDisconnectDisposesAPendingHandlerSubscription() throws {
        let disposed = expectation(description: "handler stream disposed")
        let watched = expectation(description: "handler stream watched")
        var router = Router()
        router.get("/never") { _ in
            DataStream { _ in
                watched.fulfill()
                return Disposable { disposed.fulfill() }
            }
        }
        let server = try TestServer(router: router)
        var client: RawHTTPClient? = try server.client()
        try client!.send("GET /never HTTP/1.1\r\nHost: x\r\n\r\n")
        wait(for: [watched], timeout: 5)
        client = nil
        wait(for: [disposed], timeout: 5)
    }

    func testSlowReaderOverTheStreamBufferIsDisconnected() throws {
        let disposed = expectation(description: "body stream disposed")
        let block = [UInt8](repeating: 120, count: 64 * 1024)
        var router = Router()
        router.get("/flood") { _ in
            .just(.stream(DataStream { watcher in
                // Far more than socket buffers plus the 256 KiB allowance, emitted at once to a reader that never reads.
                for _ in 0..<512 where !watcher.isStopped { watcher.data(block) }
                return Disposable { disposed.fulfill() }
            }, contentType: "application/octet-stream"))
        }
        let slowClient = BufferLimit.fail(256 * 1024)
        let server = try TestServer(router: router) { $0.limits.streamBuffer = slowClient }
        let client = try server.client()
        try client.send("GET /flood HTTP/1.1\r\nHost: x\r\n\r\n")
        wait(for: [disposed], timeout: 10)
        XCTAssertEqual(server.server.openConnections, 0)
        XCTAssertEqual(slowClient.droppedCount, 1)
    }

    private func waitForWatchers(_ streamer: Streamer<[UInt8]>, count: Int) {
        let predicate = NSPredicate { _, _ in streamer.watcherCount >= count }
        wait(for: [XCTNSPredicateExpectation(predicate: predicate, object: nil)], timeout: 5)
    }
}
