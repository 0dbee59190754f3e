// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import XCTest
@testable import HTTP
import HTTPTestSupport

final class WriteTimeoutTests: XCTestCase {
    func testClientThatStopsReadingIsDisconnectedAtTheWriteTimeout() throws {
        let big = [UInt8](repeating: 65, count: 32 << 20)
        var router = Router()
        router.get("/big") { _ in .just(Response(status: .ok, headers: ["Content-Type": "application/octet-stream"], body: .bytes(big))) }
        let server = try TestServer(router: router) { $0.timeouts.write = .milliseconds(200) }
        let client = try server.client()
        try client.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
        // The client never reads: kernel buffers fill, the rest waits in the server, then the timeout fires.
        let closed = NSPredicate { _, _ in server.server.openConnections == 0 }
        wait(for: [XCTNSPredicateExpectation(predicate: closed, object: nil)], timeout: 10)
    }
}

final class AddressFamilyTests: XCTestCase {
    func testServesOverIPv6Loopback() throws {
        var configuration = HTTPServerConfiguration(host: "::1", port: 0)
        configuration.loopCount = 1
        let server = HTTPServer(configuration: configuration, router: TestServer.standardRouter)
        let port: Int
        do { port = try server.start() } catch {
            return XCTFail("no IPv6 loopback here (::1 cannot be bound: \(error)): enable IPv6 on the loopback interface: sysctl -w net.ipv6.conf.lo.disable_ipv6=0, or docker run --sysctl net.ipv6.conf.lo.disable_ipv6=0")
        }
        defer { server.shutdown(deadline: .seconds(1)) {} }
        let client = try RawHTTPClient(port: port, host: "::1")
        try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try client.readResponse().bodyText, "hello")
    }

    func testPortInUseFailsStart() throws {
        let first = try TestServer(router: Router())
        var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: first.port)
        configuration.loopCount = 1
        XCTAssertThrowsError(try HTTPServer(configuration: configuration, router: Router()).start())
    }
}
