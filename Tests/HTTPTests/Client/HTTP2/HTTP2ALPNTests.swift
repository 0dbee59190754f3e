// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTestSupport
import XCTest
@testable import HTTP

/// Which protocol `HTTPClient` speaks to an origin: ALPN over TLS (`h2` then `http/1.1`, the origin
/// chooses), HTTP/1.1 in cleartext unless told of prior knowledge, and HTTP/1.1 alone when off.
final class HTTP2ALPNTests: XCTestCase {
    private var identity: SelfSignedCertificate!

    override func setUpWithError() throws {
        identity = try SelfSignedCertificate(label: "client-alpn")
    }

    override func tearDown() {
        identity.remove()
    }

    private func client(_ mode: HTTP2ClientSettings.Mode) -> HTTPClient {
        HTTPClient(tlsConfiguration: .client(trustedCAFile: identity.certificatePath), http2: HTTP2ClientSettings(mode: mode))
    }

    func testAnOriginThatOffersH2IsServedOverHTTP2() throws {
        let server = try HTTP2TestServer(tls: identity)
        let client = client(.auto)
        let url = URL(string: "https://localhost:\(server.port)/hello")!
        XCTAssertEqual(try outcome(of: HTTPClientRequest(url: url), via: client).get().body, Array("hello".utf8))
        XCTAssertEqual(server.events(.streamOpened).count, 1)
        XCTAssertEqual(client.http2?.connectionCount(.init(secure: true, host: "localhost", port: server.port)), 1)
    }

    func testAnOriginThatChoosesHTTP1ByALPNIsServedByThePooledHTTP1Client() throws {
        let server = try HTTP2TestServer(tls: identity) { $0.http2Enabled = false }
        let client = client(.auto)
        let url = URL(string: "https://localhost:\(server.port)/hello")!
        let results = outcomes(of: (0..<3).map { _ in HTTPClientRequest(url: url) }, via: client)
        XCTAssertEqual(results.compactMap { try? $0.get().body }, Array(repeating: Array("hello".utf8), count: 3))
        XCTAssertTrue(server.events(.streamOpened).isEmpty)
        XCTAssertEqual(client.http2?.connectionCount(.init(secure: true, host: "localhost", port: server.port)), 0)
        // Later requests go straight to HTTP/1.1, on its pooled connections.
        XCTAssertEqual(try outcome(of: HTTPClientRequest(url: url), via: client).get().status.code, 200)
        XCTAssertGreaterThan(client.idleConnections, 0)
    }

    func testOffSpeaksHTTP1ToAnOriginThatOffersH2() throws {
        let server = try HTTP2TestServer(tls: identity)
        let url = URL(string: "https://localhost:\(server.port)/hello")!
        XCTAssertEqual(try outcome(of: HTTPClientRequest(url: url), via: client(.off)).get().status.code, 200)
        XCTAssertTrue(server.events(.streamOpened).isEmpty)
    }

    func testAutoSpeaksHTTP1InCleartext() throws {
        let server = try HTTP2TestServer()
        let url = URL(string: "http://127.0.0.1:\(server.port)/hello")!
        XCTAssertEqual(try outcome(of: HTTPClientRequest(url: url), via: client(.auto)).get().status.code, 200)
        XCTAssertTrue(server.events(.streamOpened).isEmpty)
    }

    func testPriorKnowledgeSpeaksH2cInCleartext() throws {
        let server = try HTTP2TestServer()
        let url = URL(string: "http://127.0.0.1:\(server.port)/hello")!
        XCTAssertEqual(try outcome(of: HTTPClientRequest(url: url), via: client(.priorKnowledge)).get().status.code, 200)
        XCTAssertEqual(server.events(.streamOpened).count, 1)
    }

    func testAWarmedConnectionIsOpenBeforeTheFirstRequest() throws {
        let server = try HTTP2TestServer(tls: identity)
        let client = client(.auto)
        client.warm(URL(string: "https://localhost:\(server.port)/")!)
        let origin = ConnectionPool.Origin(secure: true, host: "localhost", port: server.port)
        waitUntil("the warm connection is open", timeout: 5) { client.http2?.connectionCount(origin) == 1 }
        XCTAssertTrue(server.events(.streamOpened).isEmpty)
        XCTAssertEqual(try outcome(of: HTTPClientRequest(url: URL(string: "https://localhost:\(server.port)/hello")!), via: client).get().status.code, 200)
        XCTAssertEqual(client.http2?.connectionCount(.init(secure: true, host: "localhost", port: server.port)), 1)
    }
}
