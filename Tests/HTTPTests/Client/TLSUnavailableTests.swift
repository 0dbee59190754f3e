// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import NetCore
import Streams
import XCTest
@testable import HTTP

/// A client whose TLS context could not be set up says why, instead of a bare "unavailable".
final class TLSUnavailableTests: XCTestCase {
    private func client() -> HTTPClient {
        HTTPClient(tlsConfiguration: .client(trustedCAFile: "/nonexistent/ca.pem"))
    }

    func testTheClientNamesWhyItCannotMakeHTTPSRequests() {
        let reason = client().tlsUnavailable
        XCTAssertTrue(reason?.contains("cannot load CA file /nonexistent/ca.pem") == true, String(describing: reason))
        XCTAssertNil(HTTPClient().tlsUnavailable, "the system's trust store loads")
    }

    func testAnHTTPSRequestFailsWithTheReason() async throws {
        do {
            let response = try await client().send(HTTPClientRequest(url: URL(string: "https://127.0.0.1:9/")!)).first()
            XCTFail("answered \(String(describing: response))")
        } catch HTTPClientError.connection(let reason) {
            XCTAssertTrue(reason.hasPrefix("TLS is unavailable: ") && reason.contains("cannot load CA file"), reason)
        }
    }
}
