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

/// The demo upstream over real sockets, read with the service's own upstream client.
final class DemoUpstreamServerTests: XCTestCase {
    var demo: DemoUpstreamServer!
    let transport = HTTPUpstreamTransport()

    override func setUpWithError() throws {
        demo = DemoUpstreamServer(configuration: .init(users: 30))
        try demo.start()
    }

    override func tearDown() {
        demo.stop()
    }

    func fetch(_ path: String, transport: HTTPUpstreamTransport? = nil) throws -> UpstreamResponse {
        let url = URL(string: path, relativeTo: demo.baseURL)!.absoluteURL
        return try answer(to: UpstreamRequest(url: url, headers: ["Accept-Encoding": "gzip"]), via: transport ?? self.transport)
    }

    func testUsersPageArrivesWithANextLinkToTheSameServer() throws {
        let response = try fetch("/users?since=0&per_page=2")
        XCTAssertEqual(response.status, 200)
        let users = try JSONDecoder().decode([GitHubUser].self, from: Data(response.body))
        XCTAssertEqual(users.map(\.login), ["ada1", "grace2"])
        XCTAssertEqual(response.header("link"), "<http://127.0.0.1:\(demo.port!)/users?since=2&per_page=2>; rel=\"next\"")
    }

    func testGzippedAnswersAreDecoded() throws {
        let response = try fetch("/users?per_page=30")
        XCTAssertNil(response.header("content-encoding"))
        XCTAssertEqual(try JSONDecoder().decode([GitHubUser].self, from: Data(response.body)).count, 30)
    }

    func testAvatarIsAValidPNGOverTheWireFromTheSecondOrigin() throws {
        let response = try fetch("http://127.0.0.1:\(demo.avatarPort!)/u/3")
        XCTAssertEqual(response.header("content-type"), "image/png")
        XCTAssertEqual(response.body, Identicon(login: "alan3").png())
    }

    func testConnectionsAreKeptAliveAndReused() throws {
        _ = try fetch("/users/ada1")
        XCTAssertEqual(transport.idleConnections, 1)
        _ = try fetch("/users/grace2")
        XCTAssertEqual(transport.idleConnections, 1)
    }

    func testUnreachableOriginFailsWithAConnectionError() throws {
        let port = demo.port!
        demo.stop()
        XCTAssertThrowsError(try fetch("http://127.0.0.1:\(port)/users", transport: HTTPUpstreamTransport())) { error in
            guard case .connection = error as? UpstreamError else { return XCTFail("\(error)") }
        }
    }

    func testDisposingARequestInFlightClosesItsConnection() throws {
        let slow = DemoUpstreamServer(configuration: .init(users: 5, latency: .seconds(5)))
        let port = try slow.start()
        defer { slow.stop() }
        let url = URL(string: "http://127.0.0.1:\(port)/users")!
        let subscription = transport.send(UpstreamRequest(url: url)).watch { _ in }
        waitUntil("request reached the server") { slow.openConnections == 1 }
        subscription.dispose()
        waitUntil("connection closed", timeout: 1) { slow.openConnections == 0 }
        XCTAssertEqual(transport.idleConnections, 0)
    }
}
