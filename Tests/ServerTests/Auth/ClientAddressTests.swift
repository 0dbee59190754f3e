// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import NetCore
import XCTest
@testable import Server

/// `clientAddress`: the socket peer, unless a trusted proxy names the client.
final class ClientAddressTests: XCTestCase {
    private func request(peer: String, _ headers: [(String, String)] = []) -> Request {
        Request(method: .get, target: "/", headers: HTTPHeaders(headers), remoteAddress: peer)
    }

    private func proxies(_ text: String) -> TrustedProxies {
        try! TrustedProxies.parse(text).get()
    }

    func testWithoutTrustedProxiesTheForwardingHeadersAreIgnored() {
        let spoofed = request(peer: "198.51.100.4:5000", [("X-Forwarded-For", "6.6.6.6"), ("Forwarded", "for=7.7.7.7")])
        XCTAssertEqual(clientAddressText(of: spoofed, trusting: .none), "198.51.100.4")
    }

    func testAnUntrustedPeerIsTheClientWhateverItForwards() {
        let spoofed = request(peer: "198.51.100.4:5000", [("X-Forwarded-For", "6.6.6.6")])
        XCTAssertEqual(clientAddressText(of: spoofed, trusting: proxies("10.0.0.0/8")), "198.51.100.4")
    }

    func testATrustedPeerNamesTheRightMostUntrustedHop() {
        let forwarded = request(peer: "10.0.0.2:5000", [("X-Forwarded-For", "6.6.6.6, 203.0.113.9"), ("X-Forwarded-For", "10.0.0.7")])
        XCTAssertEqual(clientAddressText(of: forwarded, trusting: proxies("10.0.0.0/8")), "203.0.113.9")
    }

    func testHopsMayCarryPortsIPv6AndStrayBlanks() {
        let forwarded = request(peer: "10.0.0.2:5000", [("X-Forwarded-For", "6.6.6.6,\t2001:db8::5 ,, 10.0.0.9:4711 ")])
        XCTAssertEqual(clientAddressText(of: forwarded, trusting: proxies("10.0.0.0/8")), "2001:db8::5")
    }

    func testForwardedIsReadWhenThereIsNoXForwardedFor() {
        let forwarded = request(peer: "[::1]:5000", [("Forwarded", #"for=6.6.6.6, for="[2001:db8:cafe::17]:4711";proto=https"#)])
        XCTAssertEqual(clientAddressText(of: forwarded, trusting: proxies("::1")), "2001:db8:cafe::17")
    }

    func testAChainOfTrustedHopsEndsAtTheFirstUntrustedOne() {
        let forwarded = request(peer: "127.0.0.1:5000", [("X-Forwarded-For", "192.0.2.1, 10.1.1.1, 10.2.2.2")])
        XCTAssertEqual(clientAddressText(of: forwarded, trusting: proxies("127.0.0.1,10.0.0.0/8")), "192.0.2.1")
    }

    func testAnUnreadableHopLeavesTheLastTrustedAddress() {
        let forwarded = request(peer: "127.0.0.1:5000", [("Forwarded", "for=unknown")])
        XCTAssertEqual(clientAddressText(of: forwarded, trusting: proxies("127.0.0.1")), "127.0.0.1")
    }

    func testAnIPv4PeerOnADualStackSocketMatchesAnIPv4Block() {
        XCTAssertTrue(proxies("127.0.0.0/8").trusts(IPAddress("::ffff:127.0.0.5")!))
        XCTAssertFalse(proxies("127.0.0.0/8").trusts(IPAddress("::1")!))
    }

    func testTheInPlaceScanAgreesWithThePlainReference() {
        let peers = ["10.0.0.2:5000", "127.0.0.1:80", "198.51.100.4:5000", "[::1]:5000", "[2001:db8::1]:443", "/tmp/socket", ""]
        let values = [
            "203.0.113.7", " 203.0.113.7 ", "6.6.6.6, 203.0.113.9", "6.6.6.6,203.0.113.9,10.0.0.7", "6.6.6.6,\t2001:db8::5 ,, 10.0.0.9:4711 ",
            "", ",", " , ", "unknown", "10.0.0.7, unknown", "1.2.3.4:80", "1.2.3.4:8:0", "256.1.1.1", "1.2.3", "1.2.3.4.5", "01.002.3.4",
            "1.2.3.4x", "[2001:db8::7]:99", "2001:db8::7", "10.1.1.1, 10.2.2.2", "1111.2.3.4", "1.2.3.",
        ]
        let proxySets = [TrustedProxies.none, proxies("10.0.0.0/8"), proxies("10.0.0.0/8,127.0.0.1,::1"), proxies("0.0.0.0/0")]
        var cases = 0
        for peer in peers {
            for proxies in proxySets {
                for first in values {
                    for second in [nil, "192.0.2.1", "10.3.3.3"] as [String?] {
                        var fields = [("Host", "example.com"), ("X-Forwarded-For", first)]
                        if let second { fields.append(("x-forwarded-for", second)) }
                        let forwarded = request(peer: peer, fields)
                        XCTAssertEqual(
                            clientAddress(of: forwarded, trusting: proxies), clientAddressByElements(of: forwarded, trusting: proxies),
                            "peer \(peer), proxies \(proxies.blocks), fields \(fields)")
                        cases += 1
                    }
                }
                let onlyForwarded = request(peer: peer, [("Forwarded", "for=192.0.2.60;proto=http, for=10.0.0.5")])
                XCTAssertEqual(clientAddress(of: onlyForwarded, trusting: proxies), clientAddressByElements(of: onlyForwarded, trusting: proxies))
            }
        }
        XCTAssertEqual(cases, peers.count * proxySets.count * values.count * 3)
    }

    /// The peer as `accept()` gave it (`Request.peerAddress`) is what its text says, and the
    /// client worked out from it is the one worked out from the text.
    func testThePeerAsAcceptedAgreesWithItsText() throws {
        let trusting = proxies("127.0.0.0/8,::1")
        for host in ["127.0.0.1", "10.1.2.3", "::1", "2001:db8::5", "::ffff:192.0.2.7", "fe80::1:2"] {
            let address = try XCTUnwrap(SocketAddress.resolve(host: host, port: 4711).first, host)
            XCTAssertEqual(IPAddress(address), IPAddress(peer: address.description), host)
            var accepted = request(peer: address.description, [("X-Forwarded-For", "203.0.113.7")])
            accepted.peerAddress = IPAddress(address)
            XCTAssertEqual(clientAddress(of: accepted, trusting: trusting), clientAddressByElements(of: accepted, trusting: trusting), host)
        }
    }

    func testTheOnePassIPv4ReadingAgreesWithTheGeneralRule() {
        let texts = [
            "127.0.0.1", "127.0.0.1:53122", "0.0.0.0", "255.255.255.255:1", "256.0.0.1", "1.2.3", "1.2.3.4.5", "1..2.3",
            ".1.2.3", "1.2.3.", "0001.2.3.4", "1.2.3.4:", "1.2.3.4:x", "1.2.3.4:1:2", "1.2.3.4 ", "a.b.c.d", "", ":", "::1",
            "[::1]:80", "1.2.3.4a:80", "99999999999.1.1.1", "1.2.3.4:80:",
        ]
        for text in texts {
            var bytes = Array(text.utf8)
            let onePass = bytes.withUnsafeBufferPointer { IPAddress.ipv4WithPort($0) }
            // The general rule for an IPv4 peer: at most one colon, a dotted quad before it.
            let colon = bytes.firstIndex(of: UInt8(ascii: ":")) ?? bytes.count
            bytes = Array(bytes[..<colon])
            let general = text.utf8.filter { $0 == UInt8(ascii: ":") }.count <= 1 ? bytes.withUnsafeBufferPointer { IPAddress.ipv4($0) } : nil
            XCTAssertEqual(onePass, general, text)
        }
    }

    func testAddressesAreEqualAndHashAlikeExactlyWhenTheirBitsAre() {
        let texts = ["192.0.2.1", "::ffff:192.0.2.1", "192.0.2.2", "::1", "::", "0.0.0.0", "2001:db8::1", "2001:db8::1:0:0:1"]
        let addresses = texts.map { IPAddress($0)! }
        XCTAssertEqual(Set(addresses).count, 7, "192.0.2.1 and ::ffff:192.0.2.1 are one address")
        for a in addresses {
            for b in addresses where a == b { XCTAssertEqual(a.hashValue, b.hashValue) }
        }
    }
}
