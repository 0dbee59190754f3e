// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Foundation
import NetCore
import XCTest
@testable import HTTP
import HTTPTestSupport

final class TLSTests: XCTestCase {
    private var identity: SelfSignedCertificate!
    private var certificate: String { identity.certificatePath }
    private var key: String { identity.keyPath }

    override func setUpWithError() throws {
        identity = try SelfSignedCertificate(label: "tls")
    }

    override func tearDownWithError() throws {
        identity.remove()
    }

    private func tlsServer() throws -> TestServer {
        try TestServer(router: TestServer.standardRouter) {
            $0.tls = .server(certificateChainFile: certificate, privateKeyFile: key)
        }
    }

    func testServesARequestOverTLS12OrLater() throws {
        let server = try tlsServer()
        let context = try TLSContext(configuration: .client(trustedCAFile: certificate))
        let reply = try TLSExchange.run(port: server.port, context: context, request: "GET /hello HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        XCTAssertTrue(reply.hasPrefix("HTTP/1.1 200 OK\r\n"), reply)
        XCTAssertTrue(reply.hasSuffix("\r\n\r\nhello"), reply)
    }

    func testRefusesATLS11OnlyClient() throws {
        let server = try tlsServer()
        var configuration = TLSConfiguration.client(trustedCAFile: certificate)
        configuration.minimumVersion = .tls1_0
        configuration.maximumVersion = .tls1_1
        configuration.cipherList = "DEFAULT:@SECLEVEL=0" // lets this client offer TLS 1.1 at all
        let context = try TLSContext(configuration: configuration)
        XCTAssertThrowsError(try TLSExchange.run(port: server.port, context: context, request: "GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n")) { error in
            XCTAssertTrue("\(error)".contains("protocol version"), "\(error)")
        }
    }

    func testRejectsACertificateForAnotherHost() throws {
        let server = try tlsServer()
        let context = try TLSContext(configuration: .client(trustedCAFile: certificate))
        XCTAssertThrowsError(try TLSExchange.run(port: server.port, host: "127.0.0.1", context: context, request: "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n"))
    }

    func testUnreadableCertificateFailsStart() throws {
        var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0)
        configuration.tls = .server(certificateChainFile: "/nonexistent/cert.pem", privateKeyFile: key)
        XCTAssertThrowsError(try HTTPServer(configuration: configuration, router: Router()).start())
    }
}
