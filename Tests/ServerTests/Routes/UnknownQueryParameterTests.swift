// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import Server
import HTTP
import HTTPTesting
import HTTPTestSupport

/// A misspelt query parameter is refused with a 400 naming it, instead of being ignored
/// (`?limt=5` used to answer the default 30 users). The refusals are the routes' own answers, read
/// in process (`RouterTestClient.service()`); the accepted parameters need the upstream's answer.
final class UnknownQueryParameterTests: XCTestCase {
    private func detail(_ target: String) async throws -> String {
        let response = try await RouterTestClient.service().execute(.get, target)
        XCTAssertEqual(response.status, .badRequest, "\(target): \(response.bodyText)")
        XCTAssertEqual(response.headers["Content-Type"], "application/problem+json")
        return try XCTUnwrap(response.bodyJSON?["detail"] as? String, response.bodyText)
    }

    func testAMisspeltLimitIsRefusedWithTheSuggestionAndTheKnownParameters() async throws {
        let detail = try await detail("/users?limt=5")
        XCTAssertEqual(
            detail,
            "Query parameter 'limt' is not one this route reads, got '5'; did you mean 'limit'? "
                + "It reads since, limit, avatars, concurrency, onAvatarError, embed, profile")
    }

    func testEveryRouteWithQueryParametersRefusesAnUnknownOne() async throws {
        for (target, suggestion) in [
            ("/users/stream?sinse=3", "since"), ("/events?kind=data", "kinds"), ("/ticks?everyms=5", "everyMs"),
        ] {
            let text = try await detail(target)
            XCTAssertTrue(text.contains("did you mean '\(suggestion)'?"), "\(target): \(text)")
        }
    }

    func testAccessTokenAndTheUnderscoreCacheBusterAreAcceptedAndIgnored() throws {
        let app = try AppHarness(self)
        let response = try app.get("/users?limit=2&access_token=abc&_=1700000000000")
        XCTAssertEqual(response.status, 200, response.bodyText)
    }

    func testARouteThatReadsNoParametersIgnoresTheQuery() async throws {
        let response = try await RouterTestClient.service().execute(.get, "/health?v=2")
        XCTAssertEqual(response.status, .ok)
    }
}
