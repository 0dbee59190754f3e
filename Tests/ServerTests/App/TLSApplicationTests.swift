// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import NetCore
import XCTest
@testable import Server
import HTTP
import HTTPTestSupport

/// `--tls-cert/--tls-key` end to end: the assembled service answers over TLS
/// with a certificate made by the `openssl` CLI at test time.
final class TLSApplicationTests: XCTestCase {
    func testServiceAnswersHealthOverTLSWithTheConfiguredCertificate() throws {
        let identity = try SelfSignedCertificate(label: "app-tls")
        addTeardownBlock { identity.remove() }
        let certificate = identity.certificatePath
        let key = identity.keyPath

        let configuration = try ServiceConfiguration.resolve(
            flags: [.host: "127.0.0.1", .port: "0", .tlsCert: certificate, .tlsKey: key], environment: [:])
        let app = try AppHarness(self) { $0 = configuration }
        XCTAssertEqual(app.logLines().first?["message"] as? String, "listening on https://127.0.0.1:\(app.port)")
        let context = try TLSContext(configuration: .client(trustedCAFile: certificate))
        let answer = try TLSExchange.run(
            port: app.port, context: context,
            request: "GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 200 OK\r\n"), answer)
        XCTAssertTrue(answer.hasSuffix(#"{"status":"ok"}"#), answer)

        let check = try ServiceProcess(["healthcheck", "--url", "https://127.0.0.1:\(app.port)/health"])
        XCTAssertEqual(check.exitStatus(), 0, check.output)
    }
}
