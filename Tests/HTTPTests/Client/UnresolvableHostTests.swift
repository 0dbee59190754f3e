// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import Streams
import XCTest
@testable import HTTP

/// A host name that does not resolve, as the client reports it: once, in the resolver's words.
/// `.invalid` never resolves (RFC 6761), without asking the network.
final class UnresolvableHostTests: XCTestCase {
    func testTheClientSaysItCannotResolveTheHostInWordsWithoutAnErrno() async throws {
        let client = HTTPClient()
        do {
            let response = try await client.send(HTTPClientRequest(url: URL(string: "http://nonexistent.invalid/users")!)).first()
            XCTFail("answered \(String(describing: response))")
        } catch HTTPClientError.connection(let reason) {
            XCTAssertTrue(reason.hasPrefix("cannot resolve nonexistent.invalid: "), reason)
            XCTAssertEqual(reason.components(separatedBy: "nonexistent.invalid").count, 2, "the host named once: \(reason)")
            for noise in ["errno", "getaddrinfo", "failed", "Invalid argument"] { XCTAssertFalse(reason.contains(noise), reason) }
        }
    }
}
