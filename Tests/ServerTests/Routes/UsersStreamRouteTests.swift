// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Domain
import Foundation
import Streams
import XCTest
@testable import Server
import HTTP
import HTTPTestSupport

final class UsersStreamRouteTests: XCTestCase {
    /// Reads messages until the chunked body ends.
    func readAll(_ client: RawHTTPClient) throws -> [SSEReader.Message] {
        var reader = SSEReader()
        var messages: [SSEReader.Message] = []
        while let chunk = try client.readChunk() { messages += reader.feed(chunk) }
        return messages
    }

    func testSendsAUserEventPerUserThenAnEndSummaryThenCloses() throws {
        let fixture = try UserAPIFixture()
        let (client, head) = try fixture.openStream("/users/stream?limit=6&concurrency=3")
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.header("Content-Type"), "text/event-stream; charset=utf-8")
        let messages = try readAll(client)
        XCTAssertEqual(messages.map(\.event), Array(repeating: "user", count: 6) + ["end"])
        let logins = try messages.dropLast().map { try JSONDecoder().decode(UserWithAvatar.self, from: Data(($0.data ?? "").utf8)).login }
        XCTAssertEqual(Set(logins).count, 6)
        let end = try XCTUnwrap(JSONSerialization.jsonObject(with: Data((messages.last!.data ?? "").utf8)) as? [String: Any])
        XCTAssertEqual(end["users"] as? Int, 6)
        XCTAssertEqual(end["errors"] as? Int, 0)
        XCTAssertNotNil(end["elapsedMs"] as? Int)
    }

    func testUpstreamFailureBecomesAnErrorEventBeforeTheEnd() throws {
        let fixture = try UserAPIFixture(upstreamURL: URL(string: "http://127.0.0.1:1")!, retry: .none)
        let (client, _) = try fixture.openStream("/users/stream?limit=3")
        let messages = try readAll(client)
        XCTAssertEqual(messages.map(\.event), ["error", "end"])
        let error = try XCTUnwrap(JSONSerialization.jsonObject(with: Data((messages[0].data ?? "").utf8)) as? [String: Any])
        XCTAssertEqual(error["status"] as? Int, 502)
    }

    func testClientDisconnectCancelsUpstreamWork() throws {
        let baseline = StreamDiagnostics.liveSubscriptions
        let fixture = try UserAPIFixture(latency: .milliseconds(100))
        let (client, head) = try fixture.openStream("/users/stream?limit=40&avatars=serial")
        XCTAssertEqual(head.status, 200)
        var reader = SSEReader()
        var firstUser: [SSEReader.Message] = []
        while firstUser.isEmpty, let chunk = try client.readChunk() {
            firstUser = reader.feed(chunk).filter { $0.event == "user" }
        }
        let metrics = fixture.metrics
        // Between one avatar's answer and the next request there is a moment with none in flight.
        waitUntil("the next avatar is being fetched", timeout: 2) { metrics.sample("upstream_in_flight") == 1 }
        withExtendedLifetime(client) {}
        _ = consume client
        waitUntil("upstream requests cancelled", timeout: 1) { metrics.sample("upstream_in_flight") == 0 }
        waitUntil("subscriptions released", timeout: 1) { StreamDiagnostics.liveSubscriptions <= baseline }
        let demo = fixture.demo!, transport = fixture.transport
        // What stays open is what the client's pool keeps idle (the API origin's connection
        // after the users page); the avatar request in flight was closed.
        waitUntil("upstream connections closed", timeout: 1) { demo.openConnections == transport.idleConnections }
    }
}
