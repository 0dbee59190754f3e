// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTestSupport
import ProcessTestSupport
import StreamServiceConcurrency
import Streams
import XCTest
@testable import HTTP

/// A server for the HTTP/2 tests: the standard routes plus a large body, a response that never
/// comes, and a fed stream; its HTTP/2 events are kept for the assertions.
final class HTTP2TestServer {
    let server: TestServer
    let feed = Streamer<[UInt8]>()
    let log = HTTP2EventLog()
    var port: Int { server.port }

    /// 256 KiB: more than the default windows (64 KiB) and the test stream buffer.
    static let bigBody = [UInt8](repeating: UInt8(ascii: "b"), count: 256 * 1024)

    init(tls: SelfSignedCertificate? = nil, metrics: HTTPMetrics = HTTPMetrics(), configure: (inout HTTPServerConfiguration) -> Void = { _ in }) throws {
        var router = TestServer.standardRouter
        let feed = self.feed
        router.get("/big") { _ in .just(Response(status: .ok, headers: ["Content-Type": "application/octet-stream"], body: .bytes(HTTP2TestServer.bigBody))) }
        router.get("/never") { _ in .never() }
        router.get("/feed") { _ in
            .just(.stream(feed.asDataStream(), contentType: "text/event-stream", shutdownTrailer: Array("event: bye\ndata: shutdown\n\n".utf8)))
        }
        router.get("/flood") { _ in
            .just(.stream(.just(data: Array(repeating: [UInt8](repeating: 0x66, count: 4096), count: 100)), contentType: "application/octet-stream"))
        }
        let log = self.log
        let observer = HTTPServerObserver(http2Event: { event in log.record(event) })
        server = try TestServer(router: router, observer: observer, metrics: metrics) { configuration in
            if let tls {
                configuration.tls = .server(certificateChainFile: tls.certificatePath, privateKeyFile: tls.keyPath)
            }
            configure(&configuration)
        }
    }

    func events(_ kind: HTTP2Event.Kind) -> [HTTP2Event] { log.events(kind) }
}

/// The HTTP/2 events a server reported, readable from any thread.
final class HTTP2EventLog: Sendable {
    private let recorded = Locked<[HTTP2Event]>([])

    func record(_ event: HTTP2Event) { recorded.withLock { $0.append(event) } }

    func events(_ kind: HTTP2Event.Kind) -> [HTTP2Event] { recorded.withLock { $0.filter { $0.kind == kind } } }
}

/// Runs the Python frame-level client (`Tests/HTTP2Clients/h2_frames.py`, python3-h2) and reads its JSON line.
enum FrameClient {
    static let python = "/usr/bin/python3"
    /// The scripts in `Tests/HTTP2Clients`: the attacks and exchanges, and the slow peers.
    enum Script: String {
        case frames = "h2_frames.py"
        case slowPeers = "h2_slow_peers.py"

        var path: String {
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("HTTP2Clients/\(rawValue)").path
        }
    }

    struct Missing: Error, CustomStringConvertible {
        let description: String
    }

    /// Fails with a clear line when Debian's python3-h2 is not installed.
    static func requireInstalled() throws {
        let probe = try ChildProcess.run(python, ["-c", "import h2, hyperframe, hpack"])
        guard probe.termination == .exited(0) else {
            throw Missing(description: "python3-h2 is missing for \(python) (apt-get install -y python3-h2; scripts/test installs it): \(probe.errorOutput)")
        }
    }

    static func run(_ name: String, port: Int, tls: Bool = false, script: Script = .frames, within timeout: TimeInterval = 60) throws -> [String: Any] {
        try requireInstalled()
        let completed = try ChildProcess.run(python, ["-B", script.path, String(port), name] + (tls ? ["--tls"] : []), within: timeout)
        guard completed.termination == .exited(0), let line = completed.output.split(separator: "\n").last,
              let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw Missing(description: "\(script.rawValue) \(name) ended with \(completed.termination): \(completed.output) \(completed.errorOutput)")
        }
        return object
    }

    /// Starts a case that holds its connection (e.g. without reading); the caller ends it.
    static func start(_ name: String, port: Int) throws -> ChildProcess {
        try requireInstalled()
        return try ChildProcess(python, ["-B", Script.frames.path, String(port), name])
    }
}

extension Dictionary where Key == String, Value == Any {
    var goAwayCode: Int? { (self["goaway"] as? [String: Any])?["code"] as? Int }
    func reset(of stream: Int) -> Int? { (self["resets"] as? [String: Any])?[String(stream)] as? Int }
    func status(of stream: Int) -> Int? { (self["statuses"] as? [String: Any])?[String(stream)] as? Int }
    var resetCount: Int { (self["resets"] as? [String: Any])?.count ?? 0 }
    var closed: Bool { self["closed"] as? Bool ?? false }
    func int(_ key: String) -> Int? { self[key] as? Int }
}
