// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore
import XCTest
@testable import HTTP

/// The first bytes of a connection choose its protocol.
final class HTTP2DetectionTests: XCTestCase {
    private let preface = HTTP2ConnectionStateMachine.preface

    func testThePrefaceMeansHTTP2() {
        XCTAssertEqual(HTTP2Detection.decide(preface + [0, 0, 0, 4], isTLS: false, alpn: nil), .http2)
    }

    func testAPrefixOfThePrefaceWaitsForMore() {
        XCTAssertEqual(HTTP2Detection.decide(Array(preface.prefix(3)), isTLS: false, alpn: nil), .undecided)
        XCTAssertEqual(HTTP2Detection.decide(Array(preface.prefix(23)), isTLS: false, alpn: nil), .undecided)
    }

    func testAnHTTP11RequestIsDecidedByItsFirstByte() {
        XCTAssertEqual(HTTP2Detection.decide(Array("G".utf8), isTLS: false, alpn: nil), .http1)
        XCTAssertEqual(HTTP2Detection.decide(Array("PRI * HTTP/1.1\r\n".utf8), isTLS: false, alpn: nil), .http1)
    }

    func testOverTLSALPNDecides() {
        XCTAssertEqual(HTTP2Detection.decide(preface, isTLS: true, alpn: "h2"), .http2)
        XCTAssertEqual(HTTP2Detection.decide(preface, isTLS: true, alpn: "http/1.1"), .http1)
        XCTAssertEqual(HTTP2Detection.decide(Array("GET".utf8), isTLS: true, alpn: nil), .http1)
    }

    func testALPNOffersH2FirstOnlyWhenEnabled() {
        let tls = TLSConfiguration.server(certificateChainFile: "cert.pem", privateKeyFile: "key.pem")
        XCTAssertEqual(HTTPServer.offeringHTTP2(tls, enabled: true).alpnProtocols, ["h2", "http/1.1"])
        XCTAssertEqual(HTTPServer.offeringHTTP2(tls, enabled: false).alpnProtocols, ["http/1.1"])
    }
}

