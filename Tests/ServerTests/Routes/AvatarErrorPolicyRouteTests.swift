// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import DemoUpstream
import Domain
import Foundation
import Streams
import XCTest
@testable import Server
import HTTP
import HTTPTestSupport
import NetCore

/// `onAvatarError` over sockets, against an upstream whose first user's avatar is missing (404).
final class AvatarErrorPolicyRouteTests: XCTestCase {
    var upstream: TestServer!
    var fixture: UserAPIFixture!

    override func setUpWithError() throws {
        let demo = DemoUpstream(configuration: .init(users: 10))
        upstream = try TestServer(router: Router { request in
            let host = request.headers["Host"] ?? "127.0.0.1"
            if request.path == "/users" {
                let page = """
                    [{"login":"ada1","id":1,"avatar_url":"http://\(host)/u/999",},
                     {"login":"grace2","id":2,"avatar_url":"http://\(host)/u/2"}]
                    """
                return .just(.json(page))
            }
            return demo.respond(to: DemoRequest(target: request.target, host: host)).map(\.httpResponse)
        })
        fixture = try UserAPIFixture(upstreamURL: URL(string: "http://127.0.0.1:\(upstream.port)")!)
    }

    override func tearDown() {
        fixture = nil
        upstream.stop()
    }

    func testFailAnswers502ForTheMissingAvatar() throws {
        let response = try fixture.get("/users?limit=2&onAvatarError=fail")
        XCTAssertEqual(response.status, 502)
        XCTAssertEqual(response.header("Content-Type"), "application/problem+json")
    }

    func testPlaceholderKeepsTheUserWithAMarkedPlaceholder() throws {
        let users = try XCTUnwrap(try fixture.get("/users?limit=2&onAvatarError=placeholder").jsonArray)
        XCTAssertEqual(users.map { $0["login"] as? String }, ["ada1", "grace2"])
        let avatar = try XCTUnwrap(users[0]["avatar"] as? [String: Any])
        XCTAssertEqual(avatar["placeholder"] as? Bool, true)
        XCTAssertEqual(avatar["sha256"] as? String, MessageDigest.sha256.hex(PlaceholderAvatar.image.bytes))
    }

    func testSkipLeavesTheUserOut() throws {
        let users = try XCTUnwrap(try fixture.get("/users?limit=2&onAvatarError=skip").jsonArray)
        XCTAssertEqual(users.map { $0["login"] as? String }, ["grace2"])
    }

    func testStreamUnderSkipSendsAnErrorEventForTheSkippedUser() throws {
        let (client, _) = try fixture.openStream("/users/stream?limit=2&avatars=serial&onAvatarError=skip")
        var reader = SSEReader()
        var messages: [SSEReader.Message] = []
        while let chunk = try client.readChunk() { messages += reader.feed(chunk) }
        XCTAssertEqual(messages.compactMap(\.event).sorted(), ["end", "error", "user"])
        let error = try XCTUnwrap(messages.first { $0.event == "error" })
        let body = try XCTUnwrap(JSONSerialization.jsonObject(with: Data((error.data ?? "").utf8)) as? [String: Any])
        XCTAssertEqual(body["login"] as? String, "ada1")
        XCTAssertEqual(body["status"] as? Int, 502)
        let end = try XCTUnwrap(messages.last)
        let summary = try XCTUnwrap(JSONSerialization.jsonObject(with: Data((end.data ?? "").utf8)) as? [String: Any])
        XCTAssertEqual(summary["users"] as? Int, 1)
        XCTAssertEqual(summary["errors"] as? Int, 1)
    }
}
