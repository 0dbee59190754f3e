// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Foundation
import NetCore
import XCTest
@testable import HTTP
import HTTPTestSupport

/// The server's TLS follows Mozilla's intermediate profile, as `openssl s_client` sees it.
/// The certificate is RSA, so static-RSA key exchange would be possible if the profile allowed it.
final class TLSProfileTests: XCTestCase {
    /// Made once for the class: an RSA-2048 key takes a few hundred milliseconds to generate.
    private static let sharedIdentity = Result { try SelfSignedCertificate(label: "tls-profile", rsa: true) }
    private var identity: SelfSignedCertificate!
    private var server: TestServer!

    override class func tearDown() {
        try? sharedIdentity.get().remove()
    }

    override func setUpWithError() throws {
        identity = try Self.sharedIdentity.get()
        server = try TestServer(router: TestServer.standardRouter) {
            $0.tls = .server(certificateChainFile: identity.certificatePath, privateKeyFile: identity.keyPath)
        }
    }

    override func tearDownWithError() throws {
        server.stop()
    }

    private func handshake(_ arguments: String...) throws -> OpenSSLClient.Outcome {
        try OpenSSLClient.handshake(port: server.port, arguments)
    }

    /// A handshake offering only `suite` (`-cipher` for TLS 1.2, `-ciphersuites` for 1.3) agrees on it.
    private func assertAgrees(on suite: String, _ version: String, _ option: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let outcome = try handshake(version, option, suite)
        XCTAssertTrue(outcome.connected, "\(suite): \(outcome.output)", file: file, line: line)
        XCTAssertTrue(outcome.output.contains("Cipher is \(suite)"), outcome.output, file: file, line: line)
    }

    func testTLS12AcceptsECDHEWithAEADCiphers() throws {
        for cipher in ["ECDHE-RSA-AES128-GCM-SHA256", "ECDHE-RSA-AES256-GCM-SHA384", "ECDHE-RSA-CHACHA20-POLY1305"] {
            try assertAgrees(on: cipher, "-tls1_2", "-cipher")
        }
    }

    func testTLS12RefusesStaticRSACBCAndFiniteFieldDHESuites() throws {
        for cipher in ["AES128-GCM-SHA256", "AES256-SHA256", "ECDHE-RSA-AES128-SHA", "ECDHE-RSA-AES256-SHA384", "DHE-RSA-AES128-GCM-SHA256"] {
            let outcome = try handshake("-tls1_2", "-cipher", cipher)
            XCTAssertFalse(outcome.connected, "\(cipher) was accepted: \(outcome.output)")
        }
    }

    func testTLS13AcceptsItsThreeStandardSuites() throws {
        for suite in ["TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256"] {
            try assertAgrees(on: suite, "-tls1_3", "-ciphersuites")
        }
    }

    func testKeyExchangeGroupsAreX25519P256AndP384Only() throws {
        for version in ["-tls1_2", "-tls1_3"] {
            for group in ["X25519", "P-256", "P-384"] {
                XCTAssertTrue(try handshake(version, "-groups", group).connected, "\(version) \(group) refused")
            }
            for group in ["X448", "P-521"] {
                XCTAssertFalse(try handshake(version, "-groups", group).connected, "\(version) \(group) accepted")
            }
        }
    }

    func testALPNAnswersH2FirstThenHTTP11() throws {
        let both = try handshake("-alpn", "http/1.1,h2")
        XCTAssertTrue(both.output.contains("ALPN protocol: h2"), both.output)
        let http11 = try handshake("-alpn", "http/1.1")
        XCTAssertTrue(http11.output.contains("ALPN protocol: http/1.1"), http11.output)
    }

    func testALPNWithNeitherH2NorHTTP11IsRefusedWithNoApplicationProtocol() throws {
        let outcome = try handshake("-alpn", "spdy/3.1")
        XCTAssertFalse(outcome.connected)
        XCTAssertTrue(outcome.output.contains("no application protocol"), outcome.output)
    }

    func testPlainHTTPSentToTheTLSPortGetsA400InPlainText() throws {
        let client = try server.client()
        try client.send("GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n")
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 400)
        XCTAssertEqual(response.header("Content-Type"), "text/plain; charset=utf-8")
        XCTAssertEqual(response.header("Connection"), "close")
        XCTAssertTrue(response.bodyText.contains("HTTPS"), response.bodyText)
    }

    func testTheNetCoreClientNegotiatesHTTP11ByALPN() throws {
        let context = try TLSContext(configuration: .client(trustedCAFile: identity.certificatePath))
        let agreed = Locked<String?>(nil)
        let connected = expectation(description: "connected")
        ByteStreamConnector.connect(host: "localhost", port: server.port, tls: context, timeout: .seconds(5)) { result in
            if case .success(let connection) = result {
                agreed.withLock { $0 = connection.applicationProtocol }
                connection.close()
            }
            connected.fulfill()
        }
        wait(for: [connected], timeout: 10)
        XCTAssertEqual(agreed.withLock { $0 }, "http/1.1")
    }
}
