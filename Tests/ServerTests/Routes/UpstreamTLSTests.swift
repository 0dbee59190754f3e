// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import DemoUpstream
import Domain
import Foundation
import NetCore
import Streams
import XCTest
@testable import Server
import HTTP
import HTTPTestSupport

/// The upstream client over TLS: certificate chain and hostname are verified.
final class UpstreamTLSTests: XCTestCase {
    private var identity: SelfSignedCertificate!
    private var certificate: String { identity.certificatePath }
    private var key: String { identity.keyPath }
    private var server: TestServer!

    override func setUpWithError() throws {
        identity = try SelfSignedCertificate(label: "upstream-tls")
        let upstream = DemoUpstream(configuration: .init(users: 10))
        server = try TestServer(router: Router { request in
            upstream.respond(to: DemoRequest(target: request.target, host: request.headers["Host"] ?? "localhost"))
                .map(\.httpResponse)
        }) { [certificate, key] in
            $0.tls = .server(certificateChainFile: certificate, privateKeyFile: key)
        }
    }

    override func tearDownWithError() throws {
        server.stop()
        identity.remove()
    }

    func send(_ url: String, trusting: Bool) throws -> UpstreamResponse {
        let transport = HTTPUpstreamTransport(client: HTTPClient(tlsConfiguration: .client(trustedCAFile: trusting ? certificate : nil)))
        return try answer(to: UpstreamRequest(url: URL(string: url)!), via: transport)
    }

    func testTrustedCertificateForTheHostIsAccepted() throws {
        let response = try send("https://localhost:\(server.port)/users/ada1", trusting: true)
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(try JSONDecoder().decode(GitHubUser.self, from: Data(response.body)).login, "ada1")
    }

    func testUntrustedCertificateIsRejected() {
        XCTAssertThrowsError(try send("https://localhost:\(server.port)/users/ada1", trusting: false)) { error in
            guard case .connection = error as? UpstreamError else { return XCTFail("\(error)") }
        }
    }

    func testCertificateForAnotherHostnameIsRejected() {
        XCTAssertThrowsError(try send("https://127.0.0.1:\(server.port)/users/ada1", trusting: true)) { error in
            guard case .connection = error as? UpstreamError else { return XCTFail("\(error)") }
        }
    }
}
