// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTestSupport
import ProcessTestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Descriptor exhaustion, for real: a `stream-service serve` child whose open-files limit is
/// lowered under it (`prlimit`) until `accept()` fails with EMFILE.
final class DescriptorExhaustionTests: XCTestCase {
    private struct Started {
        let service: ServiceProcess
        let port: Int
    }

    private func startService(_ extra: [String] = [], openFilesLimit: Int? = nil) throws -> Started {
        let service = try ServiceProcess(
            ["serve", "--host", "127.0.0.1", "--port", "0", "--header-timeout", "60", "--log-format", "json"] + extra,
            openFilesLimit: openFilesLimit)
        let first = try XCTUnwrap(service.firstLine(), service.errorOutput)
        let port = try XCTUnwrap(first.range(of: #"127\.0\.0\.1:[0-9]+"#, options: .regularExpression).flatMap { Int(first[$0].split(separator: ":")[1]) }, first)
        return Started(service: service, port: port)
    }

    /// The highest descriptor number the process holds.
    private static func highestDescriptor(of pid: Int32) throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").compactMap(Int.init).max() ?? 0
    }

    /// User plus system CPU time of the process, in clock ticks.
    private static func cpuTicks(of pid: Int32) throws -> Int {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // Fields after the parenthesised command name: state is field 3, utime 14, stime 15.
        let fields = stat[stat.range(of: ")")!.upperBound...].split(separator: " ")
        return Int(fields[11])! + Int(fields[12])!
    }

    private func waitForOutput(_ service: ServiceProcess, containing text: String, within seconds: Double = 5) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if service.output.contains(text) { return true }
            usleep(20_000)
        }
        return service.output.contains(text)
    }

    func testExhaustedDescriptorsPauseAcceptingWithoutSpinningAndTheServerRecovers() throws {
        let started = try startService()
        let pid = started.service.pid
        // Room for 8 more descriptors: the 9th client waits in the backlog, its accept failing with EMFILE.
        let limit = try Self.highestDescriptor(of: pid) + 1 + 8
        let prlimit = try ChildProcess("/usr/bin/prlimit", ["--pid", String(pid), "--nofile=\(limit):\(limit)"])
        guard case .exited(0) = prlimit.wait(within: 10) else {
            return XCTFail("prlimit (util-linux) could not lower the limit: \(prlimit.errorOutput)")
        }
        var clients = try (0..<40).map { _ in try RawHTTPClient(port: started.port) }
        XCTAssertTrue(waitForOutput(started.service, containing: "accepting paused"), started.service.output)

        let before = try Self.cpuTicks(of: pid)
        let window = 1.0
        usleep(UInt32(window * 1_000_000)) // the measurement window itself, not a wait for an event
        let used = Double(try Self.cpuTicks(of: pid) - before) / Double(sysconf(Int32(_SC_CLK_TCK)))
        XCTAssertLessThan(used / window, 0.15, "CPU share while exhausted: \(used / window); a spinning loop uses a whole core")
        // About ten failed retries in that second, one line: one per episode, not per failed accept.
        XCTAssertEqual(started.service.output.components(separatedBy: "accepting paused").count - 1, 1, started.service.output)

        clients.removeAll()
        var health: RawHTTPClient.Response?
        let deadline = Date().addingTimeInterval(10)
        while health == nil && Date() < deadline {
            health = try? {
                let client = try RawHTTPClient(port: started.port, timeout: 1)
                try client.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
                return try client.readResponse()
            }()
        }
        XCTAssertEqual(health?.status, 200, "the server answers again once descriptors are free")
        XCTAssertTrue(waitForOutput(started.service, containing: "accepting again"), started.service.output)

        let metrics = try RawHTTPClient(port: started.port)
        try metrics.send("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
        let page = try metrics.readResponse().bodyText
        XCTAssertTrue(page.contains("http_accept_pauses_total "), page)
        XCTAssertFalse(page.contains("http_accept_pauses_total 0"), page)
        XCTAssertTrue(page.contains("http_accept_paused 0"), page)
        started.service.signal(SIGTERM)
        XCTAssertEqual(started.service.exitStatus(), 0)
    }

    func testMaxConnectionsAboveTheOpenFilesLimitIsLoweredAtStartWithAWarning() throws {
        let started = try startService(["--max-connections", "5000"], openFilesLimit: 256)
        XCTAssertTrue(
            waitForOutput(started.service, containing: "--max-connections 5000 lowered to 192: the open-files limit is 256"),
            started.service.output)
        started.service.signal(SIGTERM)
        XCTAssertEqual(started.service.exitStatus(), 0)
    }
}
