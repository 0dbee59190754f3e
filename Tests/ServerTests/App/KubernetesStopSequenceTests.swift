import Foundation
import HTTPTestSupport
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// How a pod of deploy/kubernetes/base stops, on the real executable with the manifest's own
/// settings: the preStop sleep (the service untouched, still serving, while the balancers drop
/// the pod), then SIGTERM, then SIGKILL at the grace period's end.
final class KubernetesStopSequenceTests: XCTestCase {
    private static let deployment = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("deploy/kubernetes/base/deployment.yaml")

    /// The manifest's numbers: the preStop sleep, SHUTDOWN_TIMEOUT and the grace period, in seconds.
    private struct StopSettings {
        struct Unreadable: Error { let key: String }
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
            preStopSleep = try number(after: "preStop:", within: 2)
            shutdownTimeout = try number(after: "- name: SHUTDOWN_TIMEOUT")
            gracePeriod = try number(after: "terminationGracePeriodSeconds:", within: 0)
        }
    }

    private func settings() throws -> StopSettings {
        try StopSettings(manifest: String(contentsOf: Self.deployment, encoding: .utf8))
    }

    func testTheGracePeriodCoversThePreStopSleepAndTheShutdownTimeout() throws {
        let stop = try settings()
        XCTAssertGreaterThan(stop.preStopSleep, 0, "a preStop sleep lets the balancers drop the pod before SIGTERM")
        XCTAssertGreaterThan(stop.gracePeriod, stop.preStopSleep + stop.shutdownTimeout,
                             "SIGKILL would cut the drain short: the grace period counts from the preStop hook")
    }

    func testThePreStopSleepAndSIGTERMDrainAnEventStreamWithoutLosingAnEvent() throws {
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

        // The preStop sleep: nothing is sent to the service, which goes on serving and stays ready.
        let ready = try RawHTTPClient(port: port)
        try ready.send("GET /ready HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(try ready.readResponse().status, 200)
        try readTicks(ids.count + 5)

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
