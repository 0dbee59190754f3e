// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import Server

final class PageRouteTests: XCTestCase {
    func testRootServesThePageAsHTMLWithALocalOnlyContentSecurityPolicy() throws {
        let app = try AppHarness(self)
        let response = try app.get("/")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("Content-Type"), "text/html; charset=utf-8")
        XCTAssertTrue(response.bodyText.hasPrefix("<!doctype html>"), response.bodyText)
        let policy = try XCTUnwrap(response.header("Content-Security-Policy"))
        XCTAssertTrue(policy.hasPrefix("default-src 'self';"), policy)
    }

    func testThePageLoadsOnlyItsOwnStyleAndScript() throws {
        let app = try AppHarness(self)
        let html = try app.get("/").bodyText
        let references = html.matches(of: /(?:src|href)="([^"]*)"/).map { String($0.1) }
        let loaded = references.filter { !$0.hasPrefix("data:") && !$0.hasPrefix("/openapi.yaml") && !$0.hasPrefix("/metrics") && !$0.hasPrefix("/health") }
        XCTAssertEqual(Set(loaded), ["/page.css", "/page.js", "/page-feed.js"])
        XCTAssertEqual(try app.get("/page.css").header("Content-Type"), "text/css; charset=utf-8")
        XCTAssertEqual(try app.get("/page.js").header("Content-Type"), "text/javascript; charset=utf-8")
        XCTAssertEqual(try app.get("/page-feed.js").header("Content-Type"), "text/javascript; charset=utf-8")
        XCTAssertFalse(html.contains("http://") || html.contains("https://"), "the page names an external URL")
    }

    func testEmbeddedDocumentsCarryAStrongETagAndAMaxAge() throws {
        let app = try AppHarness(self)
        for path in ["/", "/page.css", "/page.js", "/page-feed.js", "/openapi.yaml"] {
            let response = try app.get(path)
            XCTAssertEqual(response.header("Cache-Control"), "max-age=300", path)
            let etag = try XCTUnwrap(response.header("ETag"), path)
            XCTAssertTrue(etag.hasPrefix("\"") && !etag.hasPrefix("W/"), etag)
        }
    }

    func testAMatchingIfNoneMatchGets304WithoutABody() throws {
        let app = try AppHarness(self)
        let etag = try XCTUnwrap(app.get("/page.js").header("ETag"))
        let revalidated = try app.get("/page.js", headers: ["If-None-Match": etag])
        XCTAssertEqual(revalidated.status, 304)
        XCTAssertEqual(revalidated.header("ETag"), etag)
        XCTAssertTrue(revalidated.body.isEmpty)
        XCTAssertEqual(try app.get("/page.js", headers: ["If-None-Match": "\"stale\""]).status, 200)
    }
}
