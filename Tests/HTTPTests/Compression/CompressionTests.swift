// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore
import XCTest
@testable import HTTP
import HTTPTestSupport

final class CompressionTests: XCTestCase {
    private static let json = "[" + (0..<200).map { "{\"id\":\($0),\"login\":\"user\($0)\"}" }.joined(separator: ",") + "]"

    private func server() throws -> TestServer {
        var router = Router()
        router.get("/users") { _ in .just(.json(CompressionTests.json)) }
        return try TestServer(router: router)
    }

    func testGzipsJSONWhenTheClientAcceptsGzip() throws {
        let server = try server()
        let client = try server.client()
        try client.send("GET /users HTTP/1.1\r\nHost: x\r\nAccept-Encoding: br, gzip\r\n\r\n")
        let response = try client.readResponse()
        XCTAssertEqual(response.header("Content-Encoding"), "gzip")
        XCTAssertEqual(response.header("Vary"), "Accept-Encoding")
        XCTAssertLessThan(response.body.count, CompressionTests.json.utf8.count)
        XCTAssertEqual(String(decoding: try Gzip.decompress(response.body), as: UTF8.self), CompressionTests.json)
    }

    func testSendsIdentityWithoutAcceptEncoding() throws {
        let server = try server()
        let client = try server.client()
        try client.send("GET /users HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try client.readResponse()
        XCTAssertNil(response.header("Content-Encoding"))
        XCTAssertEqual(response.header("Vary"), "Accept-Encoding")
        XCTAssertEqual(response.bodyText, CompressionTests.json)
    }

    func testRespectsGzipWithQualityZero() throws {
        let server = try server()
        let client = try server.client()
        try client.send("GET /users HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip;q=0, *;q=1\r\n\r\n")
        XCTAssertNil(try client.readResponse().header("Content-Encoding"))
    }

    func testNeverGzipsAnEventStream() throws {
        var router = Router()
        router.get("/events") { _ in
            .just(.stream(.just(Array(("data: " + String(repeating: "x", count: 1000) + "\n\n").utf8)), contentType: "text/event-stream; charset=utf-8"))
        }
        let server = try TestServer(router: router)
        let client = try server.client()
        try client.send("GET /events HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n")
        let response = try client.readResponse()
        XCTAssertNil(response.header("Content-Encoding"))
        XCTAssertTrue(response.bodyText.hasPrefix("data: xxx"))
    }

    func testAcceptEncodingNegotiation() {
        XCTAssertTrue(ContentCoding.acceptsGzip("gzip"))
        XCTAssertTrue(ContentCoding.acceptsGzip("deflate, GZIP;q=0.5"))
        XCTAssertTrue(ContentCoding.acceptsGzip("*"))
        XCTAssertFalse(ContentCoding.acceptsGzip("gzip;q=0"))
        XCTAssertFalse(ContentCoding.acceptsGzip("*;q=0"))
        XCTAssertFalse(ContentCoding.acceptsGzip("br"))
        XCTAssertFalse(ContentCoding.acceptsGzip(nil))
    }
}
