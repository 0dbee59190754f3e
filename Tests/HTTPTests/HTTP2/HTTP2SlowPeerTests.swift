// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTestSupport
import MetricsTestKit
import XCTest
@testable import HTTP

/// Slow HTTP/2 peers, each played by the Python client (`h2_slow_peers.py`): a request body that
/// does not come within the body timeout is answered 408 on its stream, buffered uploads are bounded
/// per connection, and a response window opened a few bytes at a time still meets the write timeout.
/// In every case the connection and its other streams go on.
final class HTTP2SlowPeerTests: XCTestCase {
    private static let refusedStream = Int(HTTP2ErrorCode.refusedStream.rawValue)
    private static let cancel = Int(HTTP2ErrorCode.cancel.rawValue)

    private func run(_ name: String, on server: HTTP2TestServer) throws -> [String: Any] {
        try FrameClient.run(name, port: server.port, script: .slowPeers)
    }

    private func assertConnectionWentOn(_ result: [String: Any], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(result.status(of: 3), 200, "a stream opened afterwards is answered: \(result)", file: file, line: line)
        XCTAssertNil(result.goAwayCode, "\(result)", file: file, line: line)
        XCTAssertFalse(result.closed, "\(result)", file: file, line: line)
    }

    private func settledAfter(_ result: [String: Any]) -> Double { result["stream1SettledAfter"] as? Double ?? .infinity }

    // MARK: - Body timeout

    private func assertAnswered408(_ result: [String: Any], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(result.status(of: 1), 408, "\(result)", file: file, line: line)
        XCTAssertTrue((result["ended"] as? [Int] ?? []).contains(1), "the 408 ends the response: \(result)", file: file, line: line)
        XCTAssertEqual(result.reset(of: 1), Int(HTTP2ErrorCode.noError.rawValue), "then the stream is closed: \(result)", file: file, line: line)
        XCTAssertGreaterThanOrEqual(settledAfter(result), 1.0, "not before the body timeout", file: file, line: line)
        XCTAssertLessThan(settledAfter(result), 5.0, "soon after the body timeout", file: file, line: line)
        assertConnectionWentOn(result, file: file, line: line)
    }

    func testARequestBodyThatNeverComesIsAnswered408OnItsStream() throws {
        let recorded = TestMetrics()
        let server = try HTTP2TestServer(metrics: HTTPMetrics(factory: recorded)) { $0.timeouts.body = .seconds(1) }
        let result = try run("body-never-sent", on: server)
        assertAnswered408(result)
        XCTAssertEqual(recorded.counterTotal(label: "http_rejections_total", dimensions: [("status", "408"), ("reason", "body_timeout")]), 1,
                       "counted as HTTP/1.1's body timeout is")
    }

    func testARequestBodyDribbledOneByteAtATimeIsAnswered408WhenTheBodyTimeoutPasses() throws {
        let server = try HTTP2TestServer { $0.timeouts.body = .seconds(1) }
        let result = try run("body-dribble", on: server)
        assertAnswered408(result)
        XCTAssertGreaterThanOrEqual(result.int("bytesSent") ?? 0, 4, "bytes kept coming until the answer: \(result)")
    }

    // MARK: - Buffered request bytes

    func testStalledUploadsOnOneConnectionAreRefusedBeyondItsBufferedRequestBytes() throws {
        // 100 streams each send up to 1,000,000 bytes (under the 1 MiB body limit) and stop before END_STREAM.
        let server = try HTTP2TestServer()
        let result = try run("stalled-uploads", on: server)
        // The bound: one largest body (1 MiB) plus one connection window (1 MiB) of the others'.
        let limit = HTTPLimits().maxBodyBytes + HTTP2ConnectionLimits().connectionWindowSize
        XCTAssertLessThanOrEqual(result.int("heldBytes") ?? .max, limit, "what the server still holds: \(result)")
        XCTAssertGreaterThan(result.resetCount, 0, "\(result)")
        let codes = Set((result["resets"] as? [String: Int] ?? [:]).values)
        XCTAssertEqual(codes, [Self.refusedStream], "the streams beyond the bound are refused, so a client may retry them: \(result)")
        XCTAssertNil(result.goAwayCode, "\(result)")
        XCTAssertFalse(result.closed)
        XCTAssertTrue(server.events(.limitExceeded).contains { $0.reason?.contains("buffered request bytes") == true })
    }

    // MARK: - Write timeout under tiny window updates

    private func assertResetByTheWriteTimeout(_ result: [String: Any], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(result.reset(of: 1), Self.cancel, "\(result)", file: file, line: line)
        XCTAssertGreaterThanOrEqual(result.int("nudges") ?? 0, 2, "the window was opened again within every write timeout: \(result)", file: file, line: line)
        XCTAssertLessThan(settledAfter(result), 5.0, "\(result)", file: file, line: line)
        assertConnectionWentOn(result, file: file, line: line)
    }

    func testAStreamWindowOpened128BytesAtATimeStillMeetsTheWriteTimeout() throws {
        let server = try HTTP2TestServer { $0.timeouts.write = .seconds(1) }
        assertResetByTheWriteTimeout(try run("stream-window-nudged", on: server))
        XCTAssertTrue(server.events(.limitExceeded).contains { $0.reason?.contains("write timeout") == true })
    }

    func testAConnectionWindowOpened128BytesAtATimeStillMeetsTheWriteTimeout() throws {
        let server = try HTTP2TestServer { $0.timeouts.write = .seconds(1) }
        assertResetByTheWriteTimeout(try run("connection-window-nudged", on: server))
    }

    func testAWindowOpenedAFrameAtATimeKeepsItsStreamPastTheWriteTimeout() throws {
        // 16 KiB every 0.4 s for 3 s: a slow reader that keeps reading outlives three write timeouts.
        let server = try HTTP2TestServer { $0.timeouts.write = .seconds(1) }
        let result = try run("window-opened-by-frames", on: server)
        XCTAssertNil(result.reset(of: 1), "\(result)")
        XCTAssertEqual(result.status(of: 1), 200, "\(result)")
        XCTAssertGreaterThanOrEqual(((result["bodyBytes"] as? [String: Int])?["1"]) ?? 0, 6 * 16_384, "\(result)")
        assertConnectionWentOn(result)
    }
}
