// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore
import XCTest
@testable import Server
import HTTP
import HTTPTestSupport

#if canImport(Glibc)
import Glibc
#endif

final class StartupFailureTests: XCTestCase {
    private var configuration: ServiceConfiguration {
        var configuration = ServiceConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 8080
        configuration.tls = .init(certificate: "/c.pem", privateKey: "/k.pem")
        return configuration
    }

    func testAddressInUseNamesThePort() {
        let error = StartupFailure.configurationError(for: SocketError("bind 127.0.0.1:8080", code: EADDRINUSE), configuration: configuration)
        XCTAssertEqual(error.setting, .port)
        XCTAssertTrue(error.description.contains("port already in use"), error.description)
    }

    func testUnresolvableHostNamesTheHost() {
        let error = StartupFailure.configurationError(
            for: ResolutionError(host: "nowhere", code: EAI_NONAME, reason: "Name or service not known"), configuration: configuration)
        XCTAssertEqual(error.setting, .host)
        XCTAssertEqual(error.reason, "cannot listen on this address: name lookup failed: Name or service not known")
    }

    func testUnloadableCertificateNamesTheCertificateFlag() {
        let error = StartupFailure.configurationError(for: TLSError("cannot load certificate /c.pem: PEM routines::no start line"), configuration: configuration)
        XCTAssertEqual(error.setting, .tlsCert)
        XCTAssertEqual(error.value, "/c.pem")
    }

    func testMismatchedKeyNamesTheKeyFlag() {
        let error = StartupFailure.configurationError(for: TLSError("private key /k.pem does not match certificate /c.pem"), configuration: configuration)
        XCTAssertEqual(error.setting, .tlsKey)
    }

    func testMultiLineErrorTextBecomesOneLine() {
        let error = StartupFailure.configurationError(for: TLSError("cannot load private key /k.pem:\nline two"), configuration: configuration)
        XCTAssertFalse(error.description.contains("\n"))
    }
}
