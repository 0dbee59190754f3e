// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamsTesting
import XCTest
@testable import HTTP

/// A request's fields for HTTP/2: names lowered by the byte-wise path as `lowercased()`, its slow
/// twin, lowers them.
final class HTTP2RequestFieldsTests: XCTestCase {
    func testLoweringANameAgreesWithLowercased() {
        var names = ["Accept", "X-GitHub-Api-Version", "already-lower", "USER-AGENT", "", "Ünïcode-Name", "A", "If-None-Match"]
        var random = SeededRandom(seed: 8231)
        for _ in 0..<500 {
            names.append(String(decoding: (0..<Int.random(in: 1...24, using: &random)).map { _ in UInt8.random(in: 32...126, using: &random) }, as: UTF8.self))
        }
        for name in names { XCTAssertEqual(HTTP2RequestHead.lowercasedName(name), name.lowercased(), name) }
    }

    func testHostAndConnectionSpecificFieldsAreLeftOut() throws {
        let request = try XCTUnwrap(HTTPClientRequest(url: "http://example.test:8080/users", headers: ["Host": "x", "Connection": "close", "Accept": "*/*", "TE": "gzip"]))
        XCTAssertEqual(HTTP2RequestFields.fields(of: request).map { "\($0.name): \($0.value)" },
                       [":method: GET", ":scheme: http", ":authority: example.test:8080", ":path: /users", "accept: */*"])
    }

    /// The list the encoder reads field by field (the fast path) against the array (its slow twin).
    func testTheListReadFieldByFieldIsTheArrayInItsOrder() throws {
        let headers: HTTPHeaders = ["Accept": "application/vnd.github+json", "User-Agent": "StreamService", "Host": "x"]
        for (url, extra) in [("http://example.test:8080/users?limit=30", [:]), ("https://example.test/u/2?s=40", ["If-None-Match": "\"v1\"", "TE": "gzip"]),
                             ("http://example.test", ["X-One": "1", "X-Two": "2"])] as [(String, HTTPHeaders)] {
            var request = try XCTUnwrap(HTTPClientRequest(url: url, headers: headers))
            request.extraHeaders = extra
            let shared = HTTP2RequestFields.shared(of: request)
            XCTAssertEqual(HTTP2RequestFields.list(of: request, shared: shared).map { "\($0.name): \($0.value)" },
                           HTTP2RequestFields.fields(of: request, shared: shared).map { "\($0.name): \($0.value)" }, url)
        }
    }

    func testAKeptSharedPartGivesTheListMadeWhole() throws {
        let cache = RequestFieldsCache { HTTP2RequestFields.shared(of: $0) }
        let headers: HTTPHeaders = ["Accept": "application/vnd.github+json", "User-Agent": "StreamService", "Connection": "close"]
        for (url, extra) in [("http://example.test:8080/users", [:]), ("http://example.test:8080/users/octocat", ["If-None-Match": "\"v1\""]),
                             ("https://example.test/u/2?s=40", [:]), ("http://example.test:8080/a", ["TE": "trailers"])] as [(String, HTTPHeaders)] {
            var request = try XCTUnwrap(HTTPClientRequest(url: url, headers: headers))
            request.extraHeaders = extra
            let origin = ConnectionPool.Origin(secure: request.isSecure, host: request.host, port: request.port)
            let kept = HTTP2RequestFields.fields(of: request, shared: cache.fields(for: request, origin: origin))
            XCTAssertEqual(kept.map { "\($0.name): \($0.value)" }, HTTP2RequestFields.fields(of: request).map { "\($0.name): \($0.value)" }, url)
        }
    }

    /// A connection's memo of its last shared part (the fast path) against the client's cache (its
    /// slow twin): the same part's fields for one origin's requests whose fields repeat, change
    /// (a new list with the same or other fields), and come back.
    func testAConnectionsLastSharedPartIsTheOneTheCacheGives() throws {
        let cache = RequestFieldsCache { HTTP2RequestFields.Shared(HTTP2RequestFields.shared(of: $0)) }
        var memo = HTTP2SharedFieldsMemo()
        let first: HTTPHeaders = ["Accept": "application/vnd.github+json", "User-Agent": "StreamService"]
        let sameAgain: HTTPHeaders = ["Accept": "application/vnd.github+json", "User-Agent": "StreamService"]
        let other: HTTPHeaders = ["Accept": "image/png", "User-Agent": "StreamService"]
        for (path, headers) in [("/users", first), ("/u/1", first), ("/u/2", sameAgain), ("/u/3", other), ("/u/4", other), ("/u/5", first)] {
            let request = try XCTUnwrap(HTTPClientRequest(url: "http://example.test:8080\(path)", headers: headers))
            let origin = ConnectionPool.Origin(secure: request.isSecure, host: request.host, port: request.port)
            let fromMemo = memo.shared(for: request, origin: origin, from: cache)
            XCTAssertEqual(fromMemo.fields.map { "\($0.name): \($0.value)" }, cache.fields(for: request, origin: origin).fields.map { "\($0.name): \($0.value)" }, path)
            XCTAssertEqual(fromMemo.fields.map { "\($0.name): \($0.value)" }, HTTP2RequestFields.shared(of: request).map { "\($0.name): \($0.value)" }, path)
        }
    }
}
