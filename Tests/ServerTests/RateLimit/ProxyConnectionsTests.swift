// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import XCTest
@testable import Server
import HTTPTestSupport

/// `--max-connections-per-client` behind a trusted proxy: the proxy's connections carry many
/// clients, so each counts on its own; anyone else's connections count together.
final class ProxyConnectionsTests: XCTestCase {
    private func secondConnectionStatus(trusting proxies: TrustedProxies) throws -> Int {
        let app = try AppHarness(self) {
            $0.maxConnectionsPerClient = 1
            $0.trustedProxies = proxies
        }
        let first = try app.client()
        try first.send("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n")
        XCTAssertEqual(try first.readResponse().status, 200, "the first connection stays open")
        let second = try app.client()
        try second.send("GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        return try second.readResponse().status
    }

    func testATrustedProxysConnectionsAreNotCappedTogether() throws {
        XCTAssertEqual(try secondConnectionStatus(trusting: try TrustedProxies.parse("127.0.0.1").get()), 200)
    }

    func testAnUntrustedPeersConnectionsAreCappedTogether() throws {
        XCTAssertEqual(try secondConnectionStatus(trusting: .none), 503)
    }
}
