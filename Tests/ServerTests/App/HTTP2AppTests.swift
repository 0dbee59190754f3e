// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import ProcessTestSupport
import XCTest
@testable import Server

/// HTTP/2 in the service: the access log names the protocol, /metrics splits by it, and an abusive
/// client's flood ends in a warning line and a count.
final class HTTP2AppTests: XCTestCase {
    private static let curl = "/usr/bin/curl"

    private func requireCurl() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.curl) else {
            throw MissingClient("curl is missing (apt-get install -y curl; scripts/test installs it)")
        }
    }

    func testAnH2RequestIsLoggedAndCountedAsH2() throws {
        try requireCurl()
        let app = try AppHarness(self)
        let result = try ChildProcess.run(Self.curl, ["-sS", "--http2-prior-knowledge", "http://127.0.0.1:\(app.port)/health"])
        XCTAssertEqual(result.output, #"{"status":"ok"}"#, result.errorOutput)
        let line = try XCTUnwrap(app.accessLogLines(count: 1).first)
        XCTAssertEqual(line["protocol"] as? String, "h2")
        let page = app.metricsPage { $0.contains(#"http_protocol_requests_total{protocol="h2"} 1"#) }
        XCTAssertTrue(page.contains(#"http_protocol_requests_total{protocol="h2"} 1"#), page)
        XCTAssertTrue(page.contains("# HELP http2_streams_open"), page)
    }

    func testAPingFloodEndsInAWarningLineAndACount() throws {
        let app = try AppHarness(self)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("HTTP2Clients/h2_frames.py").path
        let flood = try ChildProcess.run("/usr/bin/python3", ["-B", script, String(app.port), "ping-flood"], within: 60)
        XCTAssertEqual(flood.termination, .exited(0), "python3-h2 missing? (apt-get install -y python3-h2) \(flood.errorOutput)")
        XCTAssertTrue(flood.output.contains(#""code": 11"#), flood.output)
        let warned = XCTNSPredicateExpectation(predicate: NSPredicate { _, _ in
            app.logLines().contains { ($0["message"] as? String)?.hasPrefix("HTTP/2 limit_exceeded ENHANCE_YOUR_CALM: PING flood") == true }
        }, object: nil)
        XCTAssertEqual(XCTWaiter.wait(for: [warned], timeout: 5), .completed, "\(app.logLines().suffix(5))")
        let line = try XCTUnwrap(app.logLines().first { ($0["message"] as? String)?.hasPrefix("HTTP/2 limit_exceeded") == true })
        XCTAssertEqual(line["level"] as? String, "warning")
        XCTAssertEqual(line["protocol"] as? String, "h2")
        let page = app.metricsPage { $0.contains("http2_limits_exceeded_total 1") && $0.contains(#"http2_goaways_total{direction="sent"} 1"#) }
        XCTAssertTrue(page.contains("http2_limits_exceeded_total 1"), page)
        XCTAssertTrue(page.contains(#"http2_goaways_total{direction="sent"} 1"#), page)
    }

    func testAnotherClientsHTTP2EventIsLoggedWhileANoisyClientIsHeldBack() throws {
        let app = try AppHarness(self)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("HTTP2Clients/h2_goaways.py").path
        // 127.0.0.1 sends three times its log burst of GOAWAYs; 127.0.0.2's one comes in the middle of them.
        let noisy = ServerEventLog.rejectionBurst
        let run = try ChildProcess.run(
            "/usr/bin/python3", ["-B", script, String(app.port), "127.0.0.1:\(2 * noisy)", "127.0.0.2:1", "127.0.0.1:\(noisy)"], within: 60)
        XCTAssertEqual(run.termination, .exited(0), "python3-h2 missing? (apt-get install -y python3-h2) \(run.errorOutput)")
        XCTAssertTrue(run.output.contains(#""127.0.0.2": 1"#), run.output)
        // Each connection is a GOAWAY received and one sent: two HTTP/2 lines.
        let http2Lines = { (source: String) in
            app.logLines().filter {
                ($0["message"] as? String)?.hasPrefix("HTTP/2 goaway_") == true && ($0["remote"] as? String)?.hasPrefix(source + ":") == true
            }
        }
        let logged = XCTNSPredicateExpectation(predicate: NSPredicate { _, _ in !http2Lines("127.0.0.2").isEmpty }, object: nil)
        XCTAssertEqual(XCTWaiter.wait(for: [logged], timeout: 5), .completed, "the quiet client's GOAWAY was not logged")
        let noisyLines = http2Lines("127.0.0.1").count
        XCTAssertGreaterThanOrEqual(noisyLines, noisy)
        XCTAssertLessThan(noisyLines, 3 * noisy, "the noisy client is still held back")
    }
}

/// A missing client fails the test with a clear line (never a silent skip).
private struct MissingClient: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
