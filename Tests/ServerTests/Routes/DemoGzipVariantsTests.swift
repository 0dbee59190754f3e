// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import DemoUpstream
import Domain
import HTTP
import HTTPTestSupport
import NetCore
import XCTest
@testable import Server

/// The demo upstream's stored gzip encodings over real sockets: the bytes the server's writer
/// would have made by compressing each answer itself, first time and every time.
final class DemoGzipVariantsTests: XCTestCase {
    var demo: DemoUpstreamServer!
    var client: RawHTTPClient!

    override func setUpWithError() throws {
        demo = DemoUpstreamServer(configuration: .init(users: 30))
        try demo.start()
        client = try RawHTTPClient(port: demo.port!)
    }

    override func tearDown() {
        client = nil
        demo.stop()
    }

    func get(_ target: String, _ fields: [String: String] = [:]) throws -> RawHTTPClient.Response {
        let lines = fields.map { "\($0.key): \($0.value)\r\n" }.joined()
        try client.send("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(demo.port!)\r\n\(lines)\r\n")
        return try client.readResponse()
    }

    /// The fields the handler chose: without the writer's own, and without the rate limit's
    /// counts, which change with every answer.
    func answerFields(_ response: RawHTTPClient.Response) -> [String] {
        let writers: Set = ["Date", "Server", "Content-Length", "X-Request-ID", "X-RateLimit-Remaining", "X-RateLimit-Used", "X-RateLimit-Reset"]
        return response.headers.filter { !writers.contains($0.0) }.map { "\($0.0): \($0.1)" }
    }

    /// What the server's compressor makes of the demo's own answer to `target`.
    func compressedByTheWriter(_ target: String, acceptEncoding: String) -> (fields: [String], body: [UInt8]) {
        let answer = demo.upstream.answer(DemoRequest(target: target, host: "127.0.0.1:\(demo.port!)"))
        var body = answer.body
        var fields = answer.fields
        ResponseCompressor(minimumBytes: HTTPServerConfiguration().compressionMinimumBytes)
            .compress(&body, headers: &fields, status: HTTPStatus(code: answer.status), acceptEncoding: acceptEncoding)
        let rateCounts: Set = ["X-RateLimit-Remaining", "X-RateLimit-Used", "X-RateLimit-Reset"]
        return (fields.filter { !rateCounts.contains($0.name) }.map { "\($0.name): \($0.value)" }, body)
    }

    func testAGzipAnswerIsWhatTheWriterWouldHaveMadeOfTheAnswer() throws {
        let response = try get("/users?per_page=30", ["Accept-Encoding": "gzip"])
        let expected = compressedByTheWriter("/users?per_page=30", acceptEncoding: "gzip")
        XCTAssertEqual(response.header("Content-Encoding"), "gzip")
        XCTAssertEqual(answerFields(response), expected.fields)
        XCTAssertEqual(response.body, expected.body)
    }

    func testAStoredGzipAnswerRepeatsTheSameBytesWithThisAnswersRateLimit() throws {
        let first = try get("/users/barbara25/repos?per_page=100", ["Accept-Encoding": "gzip"])
        let second = try get("/users/barbara25/repos?per_page=100", ["Accept-Encoding": "gzip"])
        XCTAssertEqual(second.body, first.body)
        XCTAssertEqual(answerFields(second), answerFields(first))
        XCTAssertEqual(first.header("X-RateLimit-Used"), "1")
        XCTAssertEqual(second.header("X-RateLimit-Used"), "2")
        XCTAssertEqual(try Gzip.decompress(second.body), demo.upstream.answer(DemoRequest(target: "/users/barbara25/repos?per_page=100", host: "127.0.0.1:\(demo.port!)")).body)
    }

    func testAnAnswerIsSentAsItIsWhenGzipIsRefused() throws {
        _ = try get("/users?per_page=30", ["Accept-Encoding": "gzip"])
        let response = try get("/users?per_page=30", ["Accept-Encoding": "gzip;q=0"])
        let expected = compressedByTheWriter("/users?per_page=30", acceptEncoding: "gzip;q=0")
        XCTAssertNil(response.header("Content-Encoding"))
        XCTAssertEqual(response.header("Vary"), "Accept-Encoding")
        XCTAssertEqual(answerFields(response), expected.fields)
        XCTAssertEqual(response.body, expected.body)
    }

    func testAStoredPageAnswers304ToItsETagWithOrWithoutGzip() throws {
        _ = try get("/users?per_page=5", ["Accept-Encoding": "gzip"])
        let stored = try get("/users?per_page=5", ["Accept-Encoding": "gzip"])
        let etag = try XCTUnwrap(stored.header("ETag"))
        XCTAssertEqual(try get("/users?per_page=5", ["Accept-Encoding": "gzip", "If-None-Match": etag]).status, 304)
        XCTAssertEqual(try get("/users?per_page=5", ["If-None-Match": etag]).status, 304)
    }

    /// The second page of two and the third page of one hold the same last repo: one body, one
    /// ETag, one stored encoding, and each answer its own `Link`.
    func testAnswersSharingABodyKeepTheirOwnLinksWhenGzipped() throws {
        let directory = DemoDirectory(userCount: 30)
        let user = try XCTUnwrap((1...30).compactMap(directory.user(id:)).first { directory.repos(of: $0).count == 3 })
        let halves = try get("/users/\(user.login)/repos?per_page=2&page=2", ["Accept-Encoding": "gzip"])
        let thirds = try get("/users/\(user.login)/repos?per_page=1&page=3", ["Accept-Encoding": "gzip"])
        XCTAssertEqual(halves.header("ETag"), thirds.header("ETag"))
        XCTAssertEqual(halves.body, thirds.body)
        for (response, target) in [(halves, "/users/\(user.login)/repos?per_page=2&page=2"), (thirds, "/users/\(user.login)/repos?per_page=1&page=3")] {
            XCTAssertEqual(answerFields(response), compressedByTheWriter(target, acceptEncoding: "gzip").fields, target)
        }
        XCTAssertNotEqual(halves.header("Link"), thirds.header("Link"))
    }

    func testAvatarsAreNotCompressedAndKeepTheirETag() throws {
        let client = try RawHTTPClient(port: demo.avatarPort!)
        for _ in 0..<2 {
            try client.send("GET /u/3 HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: gzip\r\n\r\n")
            let response = try client.readResponse()
            XCTAssertNil(response.header("Content-Encoding"))
            XCTAssertEqual(response.body, Identicon(login: "alan3").png())
            XCTAssertEqual(response.header("ETag"), "\"\(MessageDigest.sha256.hex(response.body).prefix(32))\"")
        }
    }
}
