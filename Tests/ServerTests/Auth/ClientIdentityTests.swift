import HTTP
import XCTest
@testable import Server

/// `clientIdentity`: the socket peer, unless a trusted proxy names the client.
final class ClientIdentityTests: XCTestCase {
    private func request(peer: String, _ headers: [(String, String)] = []) -> Request {
        Request(method: .get, target: "/", headers: HTTPHeaders(headers), remoteAddress: peer)
    }

    private func proxies(_ text: String) -> TrustedProxies {
        try! TrustedProxies.parse(text).get()
    }

    func testWithoutTrustedProxiesTheForwardingHeadersAreIgnored() {
        let spoofed = request(peer: "198.51.100.4:5000", [("X-Forwarded-For", "6.6.6.6"), ("Forwarded", "for=7.7.7.7")])
        XCTAssertEqual(clientIdentity(of: spoofed, trusting: .none), "198.51.100.4")
    }

    func testAnUntrustedPeerIsTheClientWhateverItForwards() {
        let spoofed = request(peer: "198.51.100.4:5000", [("X-Forwarded-For", "6.6.6.6")])
        XCTAssertEqual(clientIdentity(of: spoofed, trusting: proxies("10.0.0.0/8")), "198.51.100.4")
    }

    func testATrustedPeerNamesTheRightMostUntrustedHop() {
        let forwarded = request(peer: "10.0.0.2:5000", [("X-Forwarded-For", "6.6.6.6, 203.0.113.9"), ("X-Forwarded-For", "10.0.0.7")])
        XCTAssertEqual(clientIdentity(of: forwarded, trusting: proxies("10.0.0.0/8")), "203.0.113.9")
    }

    func testHopsMayCarryPortsIPv6AndStrayBlanks() {
        let forwarded = request(peer: "10.0.0.2:5000", [("X-Forwarded-For", "6.6.6.6,\t2001:db8::5 ,, 10.0.0.9:4711 ")])
        XCTAssertEqual(clientIdentity(of: forwarded, trusting: proxies("10.0.0.0/8")), "2001:db8::5")
    }

    func testForwardedIsReadWhenThereIsNoXForwardedFor() {
        let forwarded = request(peer: "[::1]:5000", [("Forwarded", #"for=6.6.6.6, for="[2001:db8:cafe::17]:4711";proto=https"#)])
        XCTAssertEqual(clientIdentity(of: forwarded, trusting: proxies("::1")), "2001:db8:cafe::17")
    }

    func testAChainOfTrustedHopsEndsAtTheFirstUntrustedOne() {
        let forwarded = request(peer: "127.0.0.1:5000", [("X-Forwarded-For", "192.0.2.1, 10.1.1.1, 10.2.2.2")])
        XCTAssertEqual(clientIdentity(of: forwarded, trusting: proxies("127.0.0.1,10.0.0.0/8")), "192.0.2.1")
    }

    func testAnUnreadableHopLeavesTheLastTrustedAddress() {
        let forwarded = request(peer: "127.0.0.1:5000", [("Forwarded", "for=unknown")])
        XCTAssertEqual(clientIdentity(of: forwarded, trusting: proxies("127.0.0.1")), "127.0.0.1")
    }

    func testAnIPv4PeerOnADualStackSocketMatchesAnIPv4Block() {
        XCTAssertTrue(proxies("127.0.0.0/8").trusts(IPAddress("::ffff:127.0.0.5")!))
        XCTAssertFalse(proxies("127.0.0.0/8").trusts(IPAddress("::1")!))
    }
}
