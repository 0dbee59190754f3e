// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import Logging
import XCTest
@testable import Server
import Domain
import HTTP
import HTTPTestSupport
import Tracing

/// A running `Application` on 127.0.0.1 and an ephemeral port, logging into
/// memory, shut down gracefully at the end of the test.
final class AppHarness {
    let application: Application
    /// Where the application's pipelines publish, and its event log (one per harness, as per process).
    let hub: PipelineEventHub
    let port: Int
    let output = CapturedOutput()

    /// `tracer`: the server's and the upstream client's (nil: the bootstrapped one, none in tests).
    init(
        _ test: XCTestCase, hub: PipelineEventHub? = nil, tracer: (any Tracer)? = nil,
        configure: (inout ServiceConfiguration) -> Void = { _ in }
    ) throws {
        var configuration = ServiceConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.shutdownTimeout = .seconds(2)
        configure(&configuration)
        let writer = output.writer
        let logger = Logger(label: "test-app") { StdoutLogHandler(label: $0, level: .info, format: .json, writer: writer) }
        let hub = hub ?? PipelineEventHub(replayCapacity: configuration.eventsHistory)
        self.hub = hub
        application = Application(configuration: configuration, logger: logger, hub: hub, tracer: tracer)
        port = try application.start()
        let application = self.application
        test.addTeardownBlock {
            let stopped = XCTestExpectation(description: "application stopped")
            application.shutdown { stopped.fulfill() }
            _ = XCTWaiter.wait(for: [stopped], timeout: 10)
        }
    }

    func client() throws -> RawHTTPClient {
        try RawHTTPClient(port: port)
    }

    /// One GET on a fresh connection.
    func get(_ target: String, headers: [String: String] = [:]) throws -> RawHTTPClient.Response {
        let client = try client()
        let extra = headers.map { "\($0.key): \($0.value)\r\n" }.joined()
        try client.send("GET \(target) HTTP/1.1\r\nHost: localhost\r\n\(extra)Connection: close\r\n\r\n")
        return try client.readResponse()
    }

    /// The access-log lines, once at least `count` have been written: a request's
    /// line is written after its response bytes, so a client may read first.
    func accessLogLines(count: Int, timeout: TimeInterval = 5) -> [[String: Any]] {
        let lines = { self.logLines().filter { $0["request_id"] != nil } }
        let written = XCTNSPredicateExpectation(predicate: NSPredicate { _, _ in lines().count >= count }, object: nil)
        _ = XCTWaiter.wait(for: [written], timeout: timeout)
        return lines()
    }

    /// The `/metrics` page, once `settled` holds for it: a request is counted and
    /// its connection's close noted after its response bytes are written, so a
    /// client may scrape first. After `timeout`, the last page read.
    func metricsPage(timeout: TimeInterval = 5, until settled: @escaping (String) -> Bool) -> String {
        var page = ""
        let scraped = XCTNSPredicateExpectation(predicate: NSPredicate { _, _ in
            page = (try? self.get("/metrics").bodyText) ?? ""
            return settled(page)
        }, object: nil)
        _ = XCTWaiter.wait(for: [scraped], timeout: timeout)
        return page
    }

    /// The JSON log lines written so far.
    func logLines() -> [[String: Any]] {
        output.lines().compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
    }
}
