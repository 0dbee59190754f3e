import Foundation
import XCTest
@testable import Server
import HTTPTestSupport

/// `--client-request-rate` and `--trusted-proxies` over real sockets: the cap on every route,
/// kept per client, the client named by a trusted proxy only.
final class RequestRateTests: XCTestCase {
    private func app(trusting proxies: String? = nil) throws -> AppHarness {
        try AppHarness(self) {
            $0.clientRequestRate = RatePolicy(name: "requests", count: 2, period: .seconds(3600))
            if let proxies { $0.trustedProxies = try! TrustedProxies.parse(proxies).get() }
        }
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
}
