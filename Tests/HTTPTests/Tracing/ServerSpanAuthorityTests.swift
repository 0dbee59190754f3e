// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import HTTP

/// `server.address` and `server.port` of a SERVER span, read from `Host` (`:authority`).
final class ServerSpanAuthorityTests: XCTestCase {
    func testAPortReadInPlaceIsWhatIntReads() {
        for text in ["0", "80", "8080", "65535", "0080", "123456789012345678", "1234567890123456789", "", "+80", "-1", "8a", " 80", "٣"] {
            if let read = ServerSpan.decimal(Substring(text).utf8) { XCTAssertEqual(read, Int(text), text) }
        }
        XCTAssertEqual(ServerSpan.decimal(Substring("8080").utf8), 8080)
    }

    func testAnAuthoritySplitsIntoHostAndPortWithTheSchemesDefault() {
        let cases: [(String, Bool, String, Int)] = [
            ("example.com:8080", false, "example.com", 8080), ("example.com", false, "example.com", 80), ("example.com", true, "example.com", 443),
            ("127.0.0.1:29300", false, "127.0.0.1", 29300), ("[::1]:9000", false, "::1", 9000), ("[::1]", true, "::1", 443),
            ("host:+81", false, "host", 81), ("host:x", false, "host:x", 80),
        ]
        for (authority, secure, host, port) in cases {
            let split = ServerSpan.hostAndPort(authority, secure: secure)
            XCTAssertEqual(split?.0, host, authority)
            XCTAssertEqual(split?.1, port, authority)
        }
        XCTAssertNil(ServerSpan.hostAndPort("", secure: false))
    }
}
