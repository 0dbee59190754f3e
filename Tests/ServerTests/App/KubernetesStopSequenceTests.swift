// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTestSupport
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// How a pod of deploy/kubernetes/base stops, on the real executable with the manifest's own
/// settings: the preStop hook's `stream-service drain` (/ready 503, everything else still served
/// while the balancers drop the pod), then SIGTERM, then SIGKILL at the grace period's end.
final class KubernetesStopSequenceTests: XCTestCase {
    private static let deployment = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("deploy/kubernetes/base/deployment.yaml")

    /// The manifest's numbers: the preStop hook's command and wait, SHUTDOWN_TIMEOUT and the grace period, in seconds.
    private struct StopSettings {
        struct Unreadable: Error { let key: String }
        /// The hook's `command:` (`["stream-service", "drain", "--wait", "5"]`).
        var preStopCommand: [String]
        var preStopSleep: Double
        var shutdownTimeout: Double
        var gracePeriod: Double

        init(manifest: String) throws {
            let lines = manifest.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            func number(after key: String, within window: Int = 1) throws -> Double {
                let start = try XCTUnwrap(lines.firstIndex { $0.hasPrefix(key) }, "\(key) not in the manifest")
                for line in lines[start..<min(start + window + 1, lines.count)] {
                    let value = line.split(separator: ":", maxSplits: 1).last?.trimmingCharacters(in: CharacterSet(charactersIn: " \""))
                    if let seconds = value.flatMap(Double.init) { return seconds }
                }
                throw Unreadable(key: key)
            }
            let hook = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("preStop:") }, "preStop not in the manifest")
            let command = try XCTUnwrap(lines[hook...].first { $0.hasPrefix("command:") }, "the preStop hook has no command")
            preStopCommand = try XCTUnwrap(
                try JSONSerialization.jsonObject(with: Data(command.dropFirst("command:".count).utf8)) as? [String], command)
            let wait = try XCTUnwrap(preStopCommand.firstIndex(of: "--wait"), "the drain names its wait")
            preStopSleep = try XCTUnwrap(Double(preStopCommand[wait + 1]), command)
            shutdownTimeout = try number(after: "- name: SHUTDOWN_TIMEOUT")
            gracePeriod = try number(after: "terminationGracePeriodSeconds:", within: 0)
        }
    }

    private func settings() throws -> StopSettings {
        try StopSettings(manifest: String(contentsOf: Self.deployment, encoding: .utf8))
    }

    func testTheGracePeriodCoversThePreStopSleepAndTheShutdownTimeout() throws {
        let stop = try settings()
        XCTAssertGreaterThan(stop.preStopSleep, 0, "the drain's wait lets the balancers drop the pod before SIGTERM")
        XCTAssertGreaterThan(stop.gracePeriod, stop.preStopSleep + stop.shutdownTimeout,
                             "SIGKILL would cut the drain short: the grace period counts from the preStop hook")
    }

    func testThePreStopDrainAndSIGTERMEndAnEventStreamWithoutLosingAnEvent() throws {
        let stop = try settings()
        let service = try ServiceProcess(
            ["serve", "--host", "127.0.0.1", "--port", "0", "--log-format", "json", "--events-clock", "0.05"],
            environment: ["SHUTDOWN_TIMEOUT": String(stop.shutdownTimeout)])
        addTeardownBlock {
            service.signal(SIGKILL)
            _ = service.exitStatus()
        }
        let line = try XCTUnwrap(service.firstLine(), "no address line: \(service.errorOutput)")
        let message = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["message"] as? String, line)
        let port = try XCTUnwrap(message.split(separator: ":").last.flatMap { Int($0) }, message)
        let feed = try SSETestClient(port: port, target: "/events?pipeline=clock")
        XCTAssertEqual(feed.status, 200)
        var ids: [Int] = []
        func readTicks(_ count: Int) throws {
            while ids.count < count, let event = try feed.nextEvent() {
                XCTAssertEqual(event.event, "tick", "only ticks before the stop: \(event)")
                ids.append(try XCTUnwrap(event.id.flatMap { Int($0) }, "a tick without an id"))
            }
        }
        try readTicks(3)

        @Sendable func status(_ path: String) throws -> Int {
            let client = try RawHTTPClient(port: port)
            try client.send("GET \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            return try client.readResponse().status
        }
        XCTAssertEqual(try status("/ready"), 200)

        // The preStop hook, as the manifest writes it, aimed at this process instead of PID 1:
        // unready at once, still delivering, and still answering new connections.
        XCTAssertEqual(stop.preStopCommand.first, "stream-service")
        let hook = try ServiceProcess(Array(stop.preStopCommand.dropFirst()) + ["--pid", String(service.pid)])
        let drained = Date().addingTimeInterval(stop.preStopSleep)
        waitUntil("/ready turns 503 while the hook waits", timeout: stop.preStopSleep) { (try? status("/ready")) == 503 }
        XCTAssertEqual(try status("/health"), 200, "new connections are still served")
        try readTicks(ids.count + 5)
        XCTAssertEqual(hook.exitStatus(within: stop.preStopSleep + 5), 0, hook.output)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(drained), -0.5, "the hook waited its seconds")

        let signalled = ContinuousClock.now
        service.signal(SIGTERM)
        var last: SSETestClient.Message?
        while let event = try feed.nextEvent() {
            if event.event == "shutdown" { last = event; break }
            XCTAssertEqual(event.event, "tick", "only ticks before the shutdown event: \(event)")
            ids.append(try XCTUnwrap(event.id.flatMap { Int($0) }, "a tick without an id"))
        }
        XCTAssertEqual(last?.event, "shutdown", "the stream ends with the shutdown event")
        XCTAssertNil(try feed.next(), "and closes cleanly after it")
        XCTAssertEqual(ids, Array(ids[0]...ids[ids.count - 1]), "every event up to the shutdown, none missing, none twice")
        XCTAssertEqual(service.exitStatus(within: stop.shutdownTimeout + 2), 0)
        XCTAssertLessThan(ContinuousClock.now - signalled, .seconds(stop.gracePeriod - stop.preStopSleep),
                          "stopped before the grace period's SIGKILL")
    }
}
