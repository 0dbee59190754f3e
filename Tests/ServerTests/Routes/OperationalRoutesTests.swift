// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import NetCore
import XCTest
@testable import Server
import HTTP
import HTTPTestSupport

final class OperationalRoutesTests: XCTestCase {
    func testHealthAnswers200WithStatusOK() throws {
        let app = try AppHarness(self)
        let response = try app.get("/health")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("Content-Type"), "application/json")
        XCTAssertEqual(response.bodyText, #"{"status":"ok"}"#)
    }

    func testReadyAnswers200WhenTheEmbeddedUpstreamAnswers() throws {
        let app = try AppHarness(self)
        XCTAssertEqual(try app.get("/ready").status, 200)
    }

    func testReadyAnswers503WhenTheUpstreamIsUnreachable() throws {
        let closedPort = try unusedPort()
        let app = try AppHarness(self) { $0.upstream = URL(string: "http://127.0.0.1:\(closedPort)") }
        let response = try app.get("/ready")
        XCTAssertEqual(response.status, 503)
        XCTAssertEqual(response.header("Content-Type"), "application/problem+json")
        XCTAssertTrue(response.bodyText.contains("upstream"), response.bodyText)
    }

    func testOpenAPIDocumentIsServedAsYAML() throws {
        let app = try AppHarness(self)
        let response = try app.get("/openapi.yaml")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("Content-Type"), "text/yaml; charset=utf-8")
        XCTAssertTrue(response.bodyText.hasPrefix("openapi: 3."), response.bodyText)
    }

    func testMetricsCountAnsweredRequestsByMethodRouteAndStatus() throws {
        let app = try AppHarness(self)
        _ = try app.get("/health")
        _ = try app.get("/health")
        _ = try app.get("/no/such/path")
        let expected = [
            #"http_requests_total{method="GET",route="/health",status="200"} 2"#,
            #"http_requests_total{method="GET",route="unmatched",status="404"} 1"#,
            #"http_request_duration_seconds_count{route="/health"} 2"#,
        ]
        let text = app.metricsPage { page in expected.allSatisfy(page.contains) }
        for line in expected { XCTAssertTrue(text.contains(line), text) }
    }

    func testMetricsPageIsPrometheusText() throws {
        let app = try AppHarness(self)
        let page = try app.get("/metrics")
        XCTAssertEqual(page.status, 200)
        XCTAssertEqual(page.header("Content-Type"), "text/plain; version=0.0.4; charset=utf-8")
    }

    func testMetricsExposeEveryRequiredFamily() throws {
        let app = try AppHarness(self)
        // A labelled family appears with its first series: swift-prometheus registers families on first use.
        _ = try app.get("/health")
        let text = app.metricsPage { $0.contains("# TYPE http_requests_total counter\n") }
        for family in [
            "http_requests_total counter", "http_request_duration_seconds histogram", "http_connections_open gauge",
            "sse_subscribers gauge", "stream_subscriptions_live gauge", "upstream_requests_total counter",
            "upstream_retries_total counter", "upstream_request_duration_seconds histogram", "upstream_in_flight gauge",
            "upstream_cache_hits_total counter", "upstream_cache_misses_total counter", "upstream_cache_revalidations_total counter",
            "upstream_coalesced_requests_total counter",
        ] {
            XCTAssertTrue(text.contains("# TYPE \(family)\n"), "missing \(family)")
            XCTAssertTrue(text.contains("# HELP \(family.prefix { $0 != " " }) "), "no help for \(family)")
        }
    }

    func testConnectionsOpenGaugeFallsBackToTheScrapingConnectionOnceAnEarlierOneCloses() throws {
        let app = try AppHarness(self)
        _ = try app.get("/health")
        // The server learns of the /health connection's close asynchronously, so the gauge may read 2 at first.
        let text = app.metricsPage { PrometheusSample.value(of: "http_connections_open", in: $0) == 1 }
        XCTAssertEqual(PrometheusSample.value(of: "http_connections_open", in: text), 1, "only the scraping connection is open")
    }

    func testSSESubscribersGaugeFollowsOpenEventStreams() throws {
        let app = try AppHarness(self)
        let feed = try SSETestClient(port: app.port, target: "/events")
        XCTAssertEqual(feed.status, 200)
        // The stream's first message (the retry hint) is sent after the subscription starts.
        XCTAssertNotNil(try feed.next())
        let text = try app.get("/metrics").bodyText
        XCTAssertEqual(PrometheusSample.value(of: "sse_subscribers", in: text), 1, text)
    }

    func testEveryRequestGetsOneAccessLogLine() throws {
        let app = try AppHarness(self)
        _ = try app.get("/health?probe=1")
        let lines = app.accessLogLines(count: 1)
        XCTAssertEqual(lines.count, 1)
        let line = try XCTUnwrap(lines.first)
        XCTAssertEqual(line["method"] as? String, "GET")
        XCTAssertEqual(line["path"] as? String, "/health")
        XCTAssertEqual(line["route"] as? String, "/health")
        XCTAssertEqual(line["status"] as? Int, 200)
        XCTAssertEqual(line["bytes"] as? Int, 15)
        XCTAssertNotNil(line["duration_ms"] as? Double)
        XCTAssertTrue((line["remote"] as? String)?.hasPrefix("127.0.0.1:") ?? false)
    }

    func testFirstLogLineNamesTheListeningAddress() throws {
        let app = try AppHarness(self)
        let first = try XCTUnwrap(app.logLines().first)
        XCTAssertEqual(first["message"] as? String, "listening on http://127.0.0.1:\(app.port)")
    }

    private func unusedPort() throws -> Int {
        let socket = try Socket.listen(host: "127.0.0.1", port: 0)
        defer { socket.close() }
        return try XCTUnwrap(socket.localAddress()?.port)
    }
}

extension OperationalRoutesTests {
    func testServedOpenAPIDocumentIsTheRepositoryFile() throws {
        let repositoryFile = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("openapi.yaml")
        let expected = try Data(contentsOf: repositoryFile)
        let app = try AppHarness(self)
        XCTAssertEqual(Data(try app.get("/openapi.yaml").body), expected)
    }
}
