// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import Server
import HTTP
import HTTPTestSupport

/// A misspelt query parameter is refused with a 400 naming it, instead of being ignored
/// (`?limt=5` used to answer the default 30 users).
final class UnknownQueryParameterTests: XCTestCase {
    private func detail(_ app: AppHarness, _ target: String) throws -> String {
        let response = try app.get(target)
        XCTAssertEqual(response.status, 400, "\(target): \(response.bodyText)")
        XCTAssertEqual(response.header("Content-Type"), "application/problem+json")
        return try XCTUnwrap(response.bodyJSON?["detail"] as? String, response.bodyText)
    }

    func testAMisspeltLimitIsRefusedWithTheSuggestionAndTheKnownParameters() throws {
        let app = try AppHarness(self)
        XCTAssertEqual(
            try detail(app, "/users?limt=5"),
            "Query parameter 'limt' is not one this route reads, got '5'; did you mean 'limit'? "
                + "It reads since, limit, avatars, concurrency, onAvatarError, embed, profile")
    }

    func testEveryRouteWithQueryParametersRefusesAnUnknownOne() throws {
        let app = try AppHarness(self)
        for (target, suggestion) in [
            ("/users/stream?sinse=3", "since"), ("/events?kind=data", "kinds"), ("/ticks?everyms=5", "everyMs"),
        ] {
            let text = try detail(app, target)
            XCTAssertTrue(text.contains("did you mean '\(suggestion)'?"), "\(target): \(text)")
        }
    }

    func testAccessTokenAndTheUnderscoreCacheBusterAreAcceptedAndIgnored() throws {
        let app = try AppHarness(self)
        let response = try app.get("/users?limit=2&access_token=abc&_=1700000000000")
        XCTAssertEqual(response.status, 200, response.bodyText)
    }

    func testARouteThatReadsNoParametersIgnoresTheQuery() throws {
        let app = try AppHarness(self)
        XCTAssertEqual(try app.get("/health?v=2").status, 200)
    }
}
