// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import Server
import HTTP
import HTTPTestSupport
import NetCore

/// `Cache-Control`, `ETag` and `304` over real sockets, route by route.
final class CachingTests: XCTestCase {
    func testOperationalAnswersAreNeverStored() throws {
        let app = try AppHarness(self)
        for path in ["/health", "/ready", "/metrics"] {
            XCTAssertEqual(try app.get(path).header("Cache-Control"), "no-store", path)
        }
    }

    func testEventStreamsAreNeverStored() throws {
        let app = try AppHarness(self)
        let feed = try SSETestClient(port: app.port, target: "/events")
        XCTAssertEqual(feed.headers["cache-control"], "no-store")
    }

    func testProblemsAreNeverStored() throws {
        let app = try AppHarness(self)
        XCTAssertEqual(try app.get("/no/such/path").header("Cache-Control"), "no-store")
    }

    func testProblemsTheConnectionAnswersItselfAreNeverStored() throws {
        let app = try AppHarness(self)
        let client = try app.client()
        try client.send("GET /\(String(repeating: "a", count: 9000)) HTTP/1.1\r\nHost: localhost\r\n\r\n")
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 414)
        XCTAssertEqual(response.header("Cache-Control"), "no-store")
    }

    func testUserDataHasAShortMaxAgeAndAStrongETag() throws {
        let app = try AppHarness(self)
        for path in ["/users?limit=3", "/users/ada1"] {
            let response = try app.get(path)
            XCTAssertEqual(response.status, 200, path)
            XCTAssertEqual(response.header("Cache-Control"), "max-age=30", path)
            let etag = try XCTUnwrap(response.header("ETag"), path)
            XCTAssertTrue(etag.range(of: #"^"[0-9a-f]{64}"$"#, options: .regularExpression) != nil, etag)
        }
    }

    func testARepeatedAnswersTagIsTheDigestOfItsBodyEachTime() throws {
        let app = try AppHarness(self)
        for _ in 0..<3 {
            let response = try app.get("/users?limit=3")
            XCTAssertEqual(response.header("ETag"), EntityTag.strong(for: response.body))
        }
    }

    /// The kept tag (`DigestMemo`) against the tag worked out every time, its slow twin.
    func testAKeptTagIsTheTagOfTheBytesGivenNow() {
        let memo = DigestMemo(.sha256, capacity: 4, maximumBytes: 1 << 20)
        let page = Array(#"[{"login":"ada1"}]"#.utf8), changed = Array(#"[{"login":"ada2"}]"#.utf8)
        for bytes in [page, page, changed, page] {
            XCTAssertEqual(EntityTag.strong(for: bytes, key: "/users?limit=1".hashValue, memo: memo), EntityTag.strong(for: bytes))
        }
    }

    func testUserDataIsA304WhenIfNoneMatchHoldsItsTag() throws {
        let app = try AppHarness(self)
        for path in ["/users?limit=3", "/users/ada1"] {
            let etag = try XCTUnwrap(app.get(path).header("ETag"))
            let revalidated = try app.get(path, headers: ["If-None-Match": etag])
            XCTAssertEqual(revalidated.status, 304, path)
            XCTAssertEqual(revalidated.header("ETag"), etag)
            XCTAssertEqual(revalidated.header("Cache-Control"), "max-age=30")
            XCTAssertTrue(revalidated.body.isEmpty)
        }
    }

    func testAStaleTagGetsTheFullAnswer() throws {
        let app = try AppHarness(self)
        let response = try app.get("/users/ada1", headers: ["If-None-Match": "\"0000\""])
        XCTAssertEqual(response.status, 200)
        XCTAssertFalse(response.body.isEmpty)
    }

    func testTheGzipCodedAnswerHasItsOwnStrongTagWhichAlsoRevalidates() throws {
        let app = try AppHarness(self)
        let identity = try XCTUnwrap(app.get("/users?limit=20").header("ETag"))
        let compressed = try app.get("/users?limit=20", headers: ["Accept-Encoding": "gzip"])
        XCTAssertEqual(compressed.header("Content-Encoding"), "gzip")
        let gzipTag = try XCTUnwrap(compressed.header("ETag"))
        XCTAssertEqual(gzipTag, String(identity.dropLast()) + "-gzip\"")
        XCTAssertEqual(try app.get("/users?limit=20", headers: ["If-None-Match": gzipTag, "Accept-Encoding": "gzip"]).status, 304)
    }

    func testAvatarsKeepAnHourWithoutPublic() throws {
        let app = try AppHarness(self)
        let response = try app.get("/users/ada1/avatar")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("Cache-Control"), "max-age=3600")
    }
}
