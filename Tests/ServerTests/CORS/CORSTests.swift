// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import Server
import HTTP
import HTTPTestSupport

/// CORS over real sockets: what a browser on another origin is told.
final class CORSTests: XCTestCase {
    private let allowed = "http://app.example:3000"

    private func app(_ origins: CORSOrigins) throws -> AppHarness {
        try AppHarness(self) { $0.corsOrigins = origins }
    }

    private func preflight(_ app: AppHarness, origin: String, path: String = "/users") throws -> RawHTTPClient.Response {
        let client = try app.client()
        try client.send(
            "OPTIONS \(path) HTTP/1.1\r\nHost: localhost\r\nOrigin: \(origin)\r\n"
                + "Access-Control-Request-Method: GET\r\nAccess-Control-Request-Headers: last-event-id\r\nConnection: close\r\n\r\n")
        return try client.readResponse()
    }

    func testAnAllowedOriginGetsItsOriginVaryAndTheExposedHeaders() throws {
        let app = try app(.list([allowed]))
        let response = try app.get("/health", headers: ["Origin": allowed])
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("Access-Control-Allow-Origin"), allowed)
        XCTAssertTrue(response.values(of: "Vary").contains("Origin"), "\(response.headers)")
        let exposed = try XCTUnwrap(response.header("Access-Control-Expose-Headers"))
        for name in ["ETag", "Retry-After", "X-Request-ID"] { XCTAssertTrue(exposed.contains(name), exposed) }
    }

    func testStarAllowsEveryOriginWithAStar() throws {
        let app = try app(.any)
        let response = try app.get("/health", headers: ["Origin": "https://anywhere.example"])
        XCTAssertEqual(response.header("Access-Control-Allow-Origin"), "*")
    }

    func testAnOriginNotOnTheListGetsNoCORSHeaders() throws {
        let app = try app(.list([allowed]))
        let response = try app.get("/health", headers: ["Origin": "http://evil.example"])
        XCTAssertEqual(response.status, 200)
        XCTAssertTrue(response.headers.allSatisfy { !$0.0.lowercased().hasPrefix("access-control-") }, "\(response.headers)")
    }

    func testByDefaultNoOriginIsAllowed() throws {
        let app = try AppHarness(self)
        let response = try app.get("/health", headers: ["Origin": allowed])
        XCTAssertNil(response.header("Access-Control-Allow-Origin"))
    }

    func testAPreflightFromAnAllowedOriginGets204WithMethodsHeadersAndMaxAge() throws {
        let app = try app(.list([allowed]))
        let response = try preflight(app, origin: allowed)
        XCTAssertEqual(response.status, 204)
        XCTAssertEqual(response.header("Access-Control-Allow-Origin"), allowed)
        XCTAssertEqual(response.header("Access-Control-Allow-Methods"), "GET, HEAD")
        let headers = try XCTUnwrap(response.header("Access-Control-Allow-Headers"))
        for name in ["Last-Event-ID", "If-None-Match", "Cache-Control"] { XCTAssertTrue(headers.contains(name), headers) }
        XCTAssertEqual(response.header("Access-Control-Max-Age"), "600")
        XCTAssertEqual(response.header("Cache-Control"), "no-store")
    }

    func testARevalidated304KeepsTheCORSHeaders() throws {
        let app = try app(.list([allowed]))
        let etag = try XCTUnwrap(app.get("/users/ada1", headers: ["Origin": allowed]).header("ETag"))
        let response = try app.get("/users/ada1", headers: ["Origin": allowed, "If-None-Match": etag])
        XCTAssertEqual(response.status, 304)
        XCTAssertEqual(response.header("Access-Control-Allow-Origin"), allowed)
    }

    func testAPreflightFromAnotherOriginGetsNoCORSHeaders() throws {
        let app = try app(.list([allowed]))
        let response = try preflight(app, origin: "http://evil.example")
        XCTAssertEqual(response.status, 405)
        XCTAssertNil(response.header("Access-Control-Allow-Origin"))
        XCTAssertNil(response.header("Access-Control-Allow-Methods"))
    }

    func testAnEventStreamCarriesTheCORSHeadersForAnAllowedOrigin() throws {
        let app = try app(.list([allowed]))
        let feed = try SSETestClient(port: app.port, target: "/events", headers: ["Origin": allowed])
        XCTAssertEqual(feed.status, 200)
        XCTAssertEqual(feed.headers["access-control-allow-origin"], allowed)
    }

    // A shared cache stores the answer to a request without Origin (or with a refused one) and,
    // without `Vary: Origin`, would hand it — lacking Access-Control-Allow-Origin — to an allowed page.
    func testACacheableAnswerWithoutOriginVariesOnOriginWhenCORSIsOn() throws {
        for origins in [CORSOrigins.list([allowed]), .any] {
            let app = try app(origins)
            let response = try app.get("/users/ada1")
            XCTAssertEqual(response.status, 200)
            XCTAssertEqual(response.header("Cache-Control"), "max-age=30")
            XCTAssertEqual(response.values(of: "Vary").filter { $0 == "Origin" }, ["Origin"], "\(origins): \(response.headers)")
        }
    }

    func testAnAnswerToARefusedOriginVariesOnOrigin() throws {
        let app = try app(.list([allowed]))
        let response = try app.get("/users/ada1", headers: ["Origin": "http://evil.example"])
        XCTAssertNil(response.header("Access-Control-Allow-Origin"))
        XCTAssertEqual(response.values(of: "Vary").filter { $0 == "Origin" }, ["Origin"], "\(response.headers)")
    }

    func testAnAllowedOriginGetsOriginInVaryOnce() throws {
        let app = try app(.list([allowed]))
        let response = try app.get("/users/ada1", headers: ["Origin": allowed])
        XCTAssertEqual(response.values(of: "Vary").filter { $0 == "Origin" }, ["Origin"], "\(response.headers)")
    }

    func testWithoutCORSNoAnswerVariesOnOrigin() throws {
        let app = try AppHarness(self)
        let response = try app.get("/users/ada1")
        XCTAssertFalse(response.values(of: "Vary").contains("Origin"), "\(response.headers)")
    }

    func testProblemsCarryTheCORSHeadersSoThePageCanReadTheError() throws {
        let app = try app(.list([allowed]))
        let response = try app.get("/no/such/path", headers: ["Origin": allowed])
        XCTAssertEqual(response.status, 404)
        XCTAssertEqual(response.header("Access-Control-Allow-Origin"), allowed)
    }
}

extension RawHTTPClient.Response {
    /// Every value of a header that may repeat (e.g. `Vary`), split at commas.
    func values(of name: String) -> [String] {
        headers.filter { $0.0.lowercased() == name.lowercased() }
            .flatMap { $0.1.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
    }
}
