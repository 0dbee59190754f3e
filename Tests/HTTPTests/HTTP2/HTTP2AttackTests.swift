// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTestSupport
import XCTest
@testable import HTTP

/// The published HTTP/2 attacks, each performed by the Python frame client: every one ends in a
/// bounded cost (a stream error, GOAWAY, a close), reported as an `HTTP2Event` (a log line and a
/// metric in the service), and the server still answers a new client right after.
final class HTTP2AttackTests: XCTestCase {
    private static let enhanceYourCalm = Int(HTTP2ErrorCode.enhanceYourCalm.rawValue)

    private func assertStillServes(_ server: HTTP2TestServer, file: StaticString = #filePath, line: UInt = #line) throws {
        let result = try FrameClient.run("get", port: server.port)
        XCTAssertEqual(result["status"] as? Int, 200, file: file, line: line)
        XCTAssertEqual(result["body"] as? String, "hello", file: file, line: line)
    }

    private func assertLimitReported(_ server: HTTP2TestServer, _ reason: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(server.events(.limitExceeded).contains { $0.reason?.contains(reason) == true },
                      "no limit_exceeded event naming \(reason): \(server.events(.limitExceeded).map { $0.reason ?? "" })", file: file, line: line)
    }

    /// Runs `name` and checks it ended in GOAWAY ENHANCE_YOUR_CALM before it sent `limit` rounds,
    /// with a limit event naming `reason`, and that a new client is served right after.
    private func assertCalmed(_ name: String, before limit: Int = 20_000, reason: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let server = try HTTP2TestServer()
        let result = try FrameClient.run(name, port: server.port)
        XCTAssertEqual(result.goAwayCode, Self.enhanceYourCalm, "\(result)", file: file, line: line)
        XCTAssertLessThan(result.int("sent") ?? .max, limit, "the server stopped the loop early", file: file, line: line)
        assertLimitReported(server, reason, file: file, line: line)
        try assertStillServes(server, file: file, line: line)
    }

    func testRapidResetEndsInGoAwayEnhanceYourCalm() throws {
        try assertCalmed("rapid-reset", before: 5000, reason: "rapid reset")
    }

    func testContinuationFloodEndsInGoAwayEnhanceYourCalm() throws {
        try assertCalmed("continuation-flood", before: 10_000, reason: "CONTINUATION flood")
    }

    func testHPACKBombIsAnswered431AndTheConnectionGoesOn() throws {
        let server = try HTTP2TestServer()
        let result = try FrameClient.run("hpack-bomb", port: server.port)
        XCTAssertEqual(result.status(of: 1), 200)
        XCTAssertEqual(result.status(of: 3), 431, "a block of about 1 KB naming a 4 KB entry a thousand times")
        XCTAssertEqual(result.status(of: 5), 200, "the decoder's table stayed in step")
        XCTAssertNil(result.goAwayCode, "\(result)")
        assertLimitReported(server, "header list above")
    }

    func testPingFloodEndsInGoAwayEnhanceYourCalm() throws {
        try assertCalmed("ping-flood", reason: "PING")
    }

    func testSettingsFloodEndsInGoAwayEnhanceYourCalm() throws {
        try assertCalmed("settings-flood", reason: "SETTINGS")
    }

    func testResetFloodEndsInGoAwayEnhanceYourCalm() throws {
        let server = try HTTP2TestServer()
        let result = try FrameClient.run("reset-flood", port: server.port)
        XCTAssertEqual(result.reset(of: 1), Int(HTTP2ErrorCode.protocolError.rawValue), "an uppercase field name is malformed")
        XCTAssertEqual(result.goAwayCode, Self.enhanceYourCalm, "\(result)")
        assertLimitReported(server, "reset flood")
        try assertStillServes(server)
    }

    func testEmptyFramesFloodEndsInGoAwayEnhanceYourCalm() throws {
        try assertCalmed("empty-frames-flood", reason: "empty DATA")
    }

    func testUnknownFrameFloodEndsInGoAwayEnhanceYourCalm() throws {
        try assertCalmed("unknown-frames-flood", reason: "unknown frame")
    }

    func testWindowUpdateFloodOnAClosedStreamEndsInGoAwayEnhanceYourCalm() throws {
        try assertCalmed("window-update-closed-flood", reason: "WINDOW_UPDATE on a closed stream")
    }

    func testResetFloodOnAClosedStreamEndsInGoAwayEnhanceYourCalm() throws {
        try assertCalmed("reset-closed-flood", reason: "RST_STREAM on a closed stream")
    }

    func testZeroLengthHeadersAreAnswered431() throws {
        let server = try HTTP2TestServer()
        let result = try FrameClient.run("zero-length-headers", port: server.port)
        XCTAssertEqual(result.status(of: 1), 431)
        XCTAssertEqual(result.status(of: 3), 200)
        XCTAssertNil(result.goAwayCode, "\(result)")
    }

    func testDataDribbleEndsInGoAwayEnhanceYourCalm() throws {
        let server = try HTTP2TestServer()
        let result = try FrameClient.run("data-dribble", port: server.port)
        XCTAssertEqual(result.goAwayCode, Self.enhanceYourCalm, "\(result)")
        XCTAssertLessThan(result.int("framesReceived") ?? .max, 2000)
        assertLimitReported(server, "tiny WINDOW_UPDATE")
    }

    func testWindowThatNeverOpensResetsOnlyItsStream() throws {
        let server = try HTTP2TestServer { $0.timeouts.write = .seconds(1) }
        let result = try FrameClient.run("window-never-opens", port: server.port)
        XCTAssertEqual(result.status(of: 3), 200, "the other stream is answered while the first waits")
        XCTAssertEqual(result.reset(of: 1), Int(HTTP2ErrorCode.cancel.rawValue))
        XCTAssertFalse(result.closed)
        XCTAssertNil(result.goAwayCode, "\(result)")
        XCTAssertFalse(server.events(.flowControlStall).isEmpty)
        assertLimitReported(server, "flow-control window shut")
    }

    func testMoreStreamsThanMaxConcurrentStreamsAreRefused() throws {
        let server = try HTTP2TestServer()
        let result = try FrameClient.run("too-many-streams", port: server.port)
        XCTAssertEqual(result.reset(of: 201), Int(HTTP2ErrorCode.refusedStream.rawValue))
        XCTAssertEqual(result.resetCount, 1, "only the 101st stream is refused")
        XCTAssertNil(result.goAwayCode, "\(result)")
        assertLimitReported(server, "more than 100 concurrent streams")
    }

    func testUnreadResponsesAreNotBufferedWithoutBound() throws {
        // CVE-2019-9517: the client asks for 50 × 256 KiB with the largest windows and never reads.
        let server = try HTTP2TestServer { $0.timeouts.write = .seconds(1) }
        let client = try FrameClient.start("internal-data-buffering", port: server.port)
        defer { client.terminate() }
        let log = server.log
        waitUntil("the connection closed by the write timeout", timeout: 15) { log.events(.connectionClosed).count == 1 }
        try assertStillServes(server)
    }
}
