// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTestSupport
import NetCore
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// `stream-service serve` against an HTTP/2-only TLS upstream, nghttpd, trusted through
/// `SSL_CERT_FILE`: the pages, profiles and avatars come over h2, on one connection per origin.
final class UpstreamHTTP2ServiceTests: XCTestCase {
    /// The service on an ephemeral port against `upstream`; its first log line is returned too.
    private func startService(_ upstream: NGHTTPDUpstream, mode: String = "auto", trusting: Bool = true) throws -> (port: Int, first: [String: Any]) {
        let child = try ServiceProcess(
            ["serve", "--host", "127.0.0.1", "--port", "0", "--log-format", "json", "--upstream", upstream.url, "--upstream-http2", mode,
             "--upstream-retries", "0", "--upstream-cache-bytes", "0"],
            environment: trusting ? ["SSL_CERT_FILE": upstream.certificate.certificatePath] : ["SSL_CERT_FILE": "/etc/ssl/certs/ca-certificates.crt"])
        addTeardownBlock {
            child.signal(SIGTERM)
            _ = child.exitStatus()
        }
        let line = try XCTUnwrap(child.firstLine(), "no address line: \(child.errorOutput)")
        let first = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], line)
        let message = try XCTUnwrap(first["message"] as? String, line)
        return (try XCTUnwrap(message.split(separator: ":").last.flatMap { Int($0) }, message), first)
    }

    private func get(_ target: String, port: Int) throws -> RawHTTPClient.Response {
        let client = try RawHTTPClient(port: port, timeout: 15)
        try client.send("GET \(target) HTTP/1.1\r\nHost: localhost\r\n\r\n")
        return try client.readResponse()
    }

    func testUsersAndSixteenAvatarsComeOverHTTP2OnOneConnection() throws {
        let upstream = try NGHTTPDUpstream(users: 16)
        let service = try startService(upstream)
        let answer = try get("/users?limit=16", port: service.port)
        XCTAssertEqual(answer.status, 200, answer.bodyText)
        let users = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(answer.body)) as? [[String: Any]], answer.bodyText)
        XCTAssertEqual(users.compactMap { $0["login"] as? String }, (1...16).map { "user\($0)" })
        XCTAssertTrue(answer.bodyText.contains("\"bytes\":\(48 * 1024)"), answer.bodyText)
        XCTAssertTrue(upstream.output.contains("/avatars/16"), "the avatars were asked of nghttpd")
        XCTAssertEqual(upstream.connections, 1, "one connection carried the page and the sixteen avatars\n\(upstream.output.suffix(2000))")
    }

    func testAClientThatLeavesMidAvatarResetsTheAvatarStreamsUpstream() throws {
        // Large avatars, so that they are still arriving when the client goes.
        let upstream = try NGHTTPDUpstream(users: 8, avatarBytes: 4 << 20)
        let service = try startService(upstream)
        var client: RawHTTPClient? = try RawHTTPClient(port: service.port, timeout: 15)
        try client?.send("GET /users?limit=8 HTTP/1.1\r\nHost: localhost\r\n\r\n")
        let deadline = Date().addingTimeInterval(10)
        while !upstream.output.contains(":path: /avatars/") && Date() < deadline { usleep(5_000) }
        client = nil
        while !upstream.resetsReceived.contains("CANCEL") && Date() < deadline { usleep(20_000) }
        XCTAssertTrue(upstream.resetsReceived.contains("CANCEL"), "nghttpd saw no RST_STREAM CANCEL\n\(upstream.output.suffix(3000))")
        XCTAssertEqual(upstream.connections, 1)
    }

    func testAProfileComesOverHTTP2() throws {
        let upstream = try NGHTTPDUpstream(users: 3)
        let service = try startService(upstream)
        let answer = try get("/users/user2", port: service.port)
        XCTAssertEqual(answer.status, 200, answer.bodyText)
        XCTAssertTrue(answer.bodyText.contains("\"login\":\"user2\""), answer.bodyText)
        XCTAssertTrue(answer.bodyText.contains("User 2"), answer.bodyText)
    }

    func testTheFirstLogLineStatesTheUpstreamProtocol() throws {
        let upstream = try NGHTTPDUpstream(users: 1)
        let first = try startService(upstream).first
        XCTAssertEqual(first["upstream_http2"] as? String, "auto (h2 by ALPN over TLS, HTTP/1.1 in cleartext)", "\(first)")
    }

    func testTheUpstreamConnectionIsWarmBeforeTheFirstRequest() throws {
        let upstream = try NGHTTPDUpstream(users: 1)
        _ = try startService(upstream)
        let deadline = Date().addingTimeInterval(10)
        while upstream.connections == 0 && Date() < deadline { usleep(20_000) }
        XCTAssertEqual(upstream.connections, 1, "the service opened its upstream connection at start")
        XCTAssertFalse(upstream.output.contains(":path"), "no request was made")
    }

    func testWithHTTP2OffAnH2OnlyUpstreamCannotBeReached() throws {
        let upstream = try NGHTTPDUpstream(users: 1)
        let service = try startService(upstream, mode: "off")
        XCTAssertEqual(try get("/users/user1", port: service.port).status, 502)
    }

    func testTheSystemStoreAloneDoesNotTrustTheTestCertificate() throws {
        let upstream = try NGHTTPDUpstream(users: 1)
        let service = try startService(upstream, trusting: false)
        XCTAssertEqual(try get("/users/user1", port: service.port).status, 502)
    }
}
