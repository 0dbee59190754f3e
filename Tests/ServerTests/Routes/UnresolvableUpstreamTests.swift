// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import XCTest
@testable import Server
import HTTPTestSupport

/// An upstream whose name does not resolve: the 502 says so once, in words (`.invalid` never
/// resolves, RFC 6761, without asking the network).
final class UnresolvableUpstreamTests: XCTestCase {
    func testThe502SaysTheUpstreamNameCannotBeResolvedWithoutAnErrno() throws {
        let app = try AppHarness(self) {
            $0.upstream = URL(string: "http://nonexistent.invalid")
            $0.upstreamRetries = 0
        }
        let response = try app.get("/users/ada1")
        XCTAssertEqual(response.status, 502, response.bodyText)
        let detail = try XCTUnwrap(response.bodyJSON?["detail"] as? String, response.bodyText)
        XCTAssertTrue(detail.contains(": cannot resolve nonexistent.invalid: "), detail)
        XCTAssertEqual(detail.components(separatedBy: "nonexistent.invalid").count, 2, "the host named once: \(detail)")
        for noise in ["errno", "getaddrinfo", "failed", "Invalid argument"] { XCTAssertFalse(detail.contains(noise), detail) }
    }
}
