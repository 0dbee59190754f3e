// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import XCTest
@testable import Server
import HTTPTestSupport

/// `--client-request-rate` and `--trusted-proxies` over real sockets: the cap on every route,
/// kept per client, the client named by a trusted proxy only.
final class RequestRateTests: XCTestCase {
    private func app(trusting proxies: String? = nil, configure: @escaping (inout ServiceConfiguration) -> Void = { _ in }) throws -> AppHarness {
        try AppHarness(self) {
            $0.clientRequestRate = RatePolicy(name: "requests", count: 2, period: .seconds(3600))
            if let proxies { $0.trustedProxies = try! TrustedProxies.parse(proxies).get() }
            configure(&$0)
        }
    }

    private func health(_ app: AppHarness, from client: String) throws -> Int {
        try app.get("/health", headers: ["X-Forwarded-For": client]).status
    }

    func testEveryRouteIsCappedPerClient() throws {
        let app = try app()
        XCTAssertEqual(try app.get("/health").status, 200)
        XCTAssertEqual(try app.get("/openapi.yaml").status, 200)
        let refused = try app.get("/health")
        XCTAssertEqual(refused.status, 429)
        XCTAssertNotNil(refused.header("Retry-After"))
        XCTAssertEqual(refused.header("RateLimit-Policy"), #""requests";q=2;w=3600"#)
    }

    func testClientsBehindATrustedProxyAreToldApartByTheForwardedAddress() throws {
        let app = try app(trusting: "127.0.0.1")
        for _ in 0..<2 { XCTAssertEqual(try app.get("/health", headers: ["X-Forwarded-For": "203.0.113.1"]).status, 200) }
        XCTAssertEqual(try app.get("/health", headers: ["X-Forwarded-For": "203.0.113.1"]).status, 429)
        XCTAssertEqual(try app.get("/health", headers: ["X-Forwarded-For": "203.0.113.2"]).status, 200, "another client behind the same proxy")
        XCTAssertEqual(try app.get("/health", headers: ["Forwarded": "for=203.0.113.3"]).status, 200, "RFC 7239 too")
    }

    func testAnUntrustedPeerCannotPickItsIdentity() throws {
        let app = try app(trusting: "10.0.0.0/8")
        XCTAssertEqual(try app.get("/health", headers: ["X-Forwarded-For": "203.0.113.1"]).status, 200)
        XCTAssertEqual(try app.get("/health", headers: ["X-Forwarded-For": "203.0.113.2"]).status, 200)
        XCTAssertEqual(try app.get("/health", headers: ["X-Forwarded-For": "203.0.113.3"]).status, 429, "all three are the peer 127.0.0.1")
    }

    /// Before, the table was cleared above its bound: a client at 429 was at 200 again once enough
    /// other addresses had passed (150,000 against the real bound; 300 against a bound of 64 here).
    func testALimitedClientStaysLimitedAfterManyOtherAddressesPassATrustedProxy() throws {
        let app = try app(trusting: "127.0.0.1") { $0.rateLimitClients = 64 }
        for _ in 0..<2 { XCTAssertEqual(try health(app, from: "203.0.113.1"), 200) }
        XCTAssertEqual(try health(app, from: "203.0.113.1"), 429)
        for index in 0..<300 { XCTAssertEqual(try health(app, from: "198.51.\(100 + index / 250).\(index % 250)"), 200, "a newcomer, with room made for it") }
        XCTAssertEqual(try health(app, from: "203.0.113.1"), 429, "still limited: a client over its limit is never forgotten")
    }

    func testIPv6ClientsInOneSlash64ShareABudget() throws {
        let app = try app(trusting: "127.0.0.1")
        XCTAssertEqual(try health(app, from: "2001:db8:1:2::1"), 200)
        XCTAssertEqual(try health(app, from: "2001:db8:1:2:aaaa:bbbb:cccc:dddd"), 200)
        XCTAssertEqual(try health(app, from: "2001:db8:1:2::ffff"), 429, "a third address in the same /64: the budget of 2 is spent")
        XCTAssertEqual(try health(app, from: "2001:db8:1:3::1"), 200, "the next /64 is another client")
        XCTAssertEqual(try health(app, from: "203.0.113.1"), 200, "IPv4 clients by their whole address")
    }

    func testTheIPv6PrefixIsTheOperatorsChoice() throws {
        let app = try app(trusting: "127.0.0.1") { $0.rateLimitIPv6Prefix = 128 }
        for _ in 0..<2 { XCTAssertEqual(try health(app, from: "2001:db8:1:2::1"), 200) }
        XCTAssertEqual(try health(app, from: "2001:db8:1:2::1"), 429)
        XCTAssertEqual(try health(app, from: "2001:db8:1:2::2"), 200, "with /128 every address is a client")
    }
}
