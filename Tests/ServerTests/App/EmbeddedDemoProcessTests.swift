// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTestSupport
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// The embedded demo upstream as a `serve` process runs it (the process bootstraps the global
/// `MetricsSystem`, which in-process tests do not): the service's metrics count only the
/// service, and the demo's answers name no port of the process, so replicas agree.
final class EmbeddedDemoProcessTests: XCTestCase {
    /// `stream-service serve` with the embedded demo on an ephemeral port, stopped when the test ends.
    private func startService() throws -> Int {
        let child = try ServiceProcess(["serve", "--host", "127.0.0.1", "--port", "0", "--log-format", "json"])
        addTeardownBlock {
            child.signal(SIGTERM)
            _ = child.exitStatus()
        }
        let line = try XCTUnwrap(child.firstLine(), "no address line: \(child.errorOutput)")
        let message = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["message"] as? String, line)
        return try XCTUnwrap(message.split(separator: ":").last.flatMap { Int($0) }, message)
    }

    private func get(_ target: String, on client: RawHTTPClient) throws -> RawHTTPClient.Response {
        try client.send("GET \(target) HTTP/1.1\r\nHost: localhost\r\n\r\n")
        return try client.readResponse()
    }

    /// The samples of `family` in a Prometheus page: each line's labels and value.
    private func samples(_ family: String, in page: String) -> [(labels: Substring, value: Double)] {
        page.split(separator: "\n").compactMap { line in
            guard line.hasPrefix(family + "{") || line.hasPrefix(family + " "), let value = line.split(separator: " ").last.flatMap({ Double($0) }) else { return nil }
            return (line.dropFirst(family.count).prefix { $0 != " " }, value)
        }
    }

    func testTheServiceMetricsCountOnlyTheServiceNotItsEmbeddedDemo() throws {
        let port = try startService()
        let clients = try (0..<5).map { _ in try RawHTTPClient(port: port, timeout: 10) }
        for client in clients { XCTAssertEqual(try get("/health", on: client).status, 200) }
        XCTAssertEqual(try get("/users?limit=3", on: clients[0]).status, 200, "a users page and 3 avatars from the demo")
        // A request is counted after its answer's bytes: scrape until the six are in (bounded).
        var page = ""
        var counted = 0.0
        let deadline = Date().addingTimeInterval(5)
        repeat {
            page = try get("/metrics", on: clients[1]).bodyText
            counted = samples("http_requests_total", in: page).filter { !$0.labels.contains("route=\"/metrics\"") }.map(\.value).reduce(0, +)
        } while counted < 6 && Date() < deadline
        XCTAssertEqual(counted, 6, "five /health and one /users, none of the demo's requests\n\(page)")
        XCTAssertEqual(samples("http_connections_open", in: page).map(\.value), [5], "the service's five keep-alive connections, not the demo's\n\(page)")
    }

    func testTwoProcessesAnswerTheSameUsersPageWithTheSameBytesAndETag() throws {
        let answers = try (0..<2).map { _ in
            let client = try RawHTTPClient(port: try startService(), timeout: 10)
            return try get("/users?limit=5", on: client)
        }
        XCTAssertEqual(answers.map(\.status), [200, 200])
        XCTAssertTrue(answers[0].bodyText.contains("\"upstreamUrl\":\"http://avatars.demo.invalid/u/1?v=4\""), answers[0].bodyText)
        XCTAssertEqual(answers[0].bodyText, answers[1].bodyText)
        XCTAssertNotNil(answers[0].header("ETag"))
        XCTAssertEqual(answers[0].header("ETag"), answers[1].header("ETag"))
    }
}
