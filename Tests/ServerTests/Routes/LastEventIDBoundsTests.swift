// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import ProcessTestSupport
import XCTest
@testable import Server
import HTTPTestSupport

/// A `Last-Event-ID` is the client's to choose: any value, over any protocol, is answered with
/// a replay or `event: reset` — never with a trap that ends the process.
final class LastEventIDBoundsTests: XCTestCase {
    private static let curl = "/usr/bin/curl"
    private static let largest = String(Int.max)

    private func requireCurl() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.curl) else {
            XCTFail("curl is missing (apt-get install -y curl; scripts/test installs it)")
            throw CocoaError(.fileNoSuchFile)
        }
    }

    /// What curl received from `/events` with `Last-Event-ID: id` in `seconds` (the stream never ends by itself).
    private func curlEvents(_ url: String, id: String, _ options: [String]) throws -> String {
        try requireCurl()
        let run = try ChildProcess.run(Self.curl, ["-sS", "-N", "--max-time", "2", "-H", "Last-Event-ID: \(id)"] + options + [url])
        return run.output
    }

    private func assertStillServing(_ app: AppHarness, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(try app.get("/health").status, 200, "the process survived", file: file, line: line)
    }

    func testTheLargestIdOverHTTP1GetsResetAndTheServiceGoesOn() throws {
        let app = try AppHarness(self)
        let feed = try SSETestClient(port: app.port, target: "/events", headers: ["Last-Event-ID": Self.largest])
        XCTAssertEqual(try feed.nextEvent()?.event, "reset")
        try assertStillServing(app)
    }

    func testAnIdBeyondEveryIntegerGetsResetLikeAnyIdNeverIssued() throws {
        let app = try AppHarness(self)
        let feed = try SSETestClient(port: app.port, target: "/events", headers: ["Last-Event-ID": "99999999999999999999999999"])
        XCTAssertEqual(try feed.nextEvent()?.event, "reset")
        try assertStillServing(app)
    }

    func testTheSmallestIdGetsResetAndTheServiceGoesOn() throws {
        let app = try AppHarness(self)
        let feed = try SSETestClient(port: app.port, target: "/events", headers: ["Last-Event-ID": String(Int.min)])
        XCTAssertEqual(try feed.nextEvent()?.event, "reset")
        try assertStillServing(app)
    }

    func testTheLargestIdOverH2cGetsResetAndTheServiceGoesOn() throws {
        let app = try AppHarness(self)
        let output = try curlEvents("http://127.0.0.1:\(app.port)/events", id: Self.largest, ["--http2-prior-knowledge"])
        XCTAssertTrue(output.contains("event: reset"), output)
        try assertStillServing(app)
    }

    func testTheLargestIdOverH2WithTLSGetsResetAndTheServiceGoesOn() throws {
        let identity = try SelfSignedCertificate(label: "last-event-id")
        addTeardownBlock { identity.remove() }
        let configuration = try ServiceConfiguration.resolve(
            flags: [.host: "127.0.0.1", .port: "0", .tlsCert: identity.certificatePath, .tlsKey: identity.keyPath], environment: [:])
        let app = try AppHarness(self) { $0 = configuration }
        // The certificate names localhost.
        let tls = ["--http2", "--cacert", identity.certificatePath, "--resolve", "localhost:\(app.port):127.0.0.1"]
        let output = try curlEvents("https://localhost:\(app.port)/events", id: Self.largest, tls)
        XCTAssertTrue(output.contains("event: reset"), output)
        let health = try ChildProcess.run(Self.curl, ["-sS"] + tls + ["https://localhost:\(app.port)/health"])
        XCTAssertEqual(health.output, #"{"status":"ok"}"#, "the process survived: \(health.errorOutput)")
    }

    func testTheLargestIdWithAValidSubscribeTokenGetsResetAndTheServiceGoesOn() throws {
        let auth = try AuthHarness(self)
        let token = try auth.mint.token(["sub": "alice", "streamservice": ["subscribe": ["*"]]])
        let feed = try auth.events(token: token, headers: ["Last-Event-ID": Self.largest])
        XCTAssertEqual(feed.status, 200)
        XCTAssertEqual(try feed.nextEvent()?.event, "reset")
        try assertStillServing(auth.app)
    }

    func testTheLargestIdOnTicksEndsTheFeedWith204() throws {
        let app = try AppHarness(self)
        XCTAssertEqual(try app.get("/ticks?everyMs=10&count=5", headers: ["Last-Event-ID": Self.largest]).status, 204)
    }
}
