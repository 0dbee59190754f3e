// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Domain
import HTTP
import Streams
import Telemetry
import XCTest
@testable import Server

final class ServiceMetricsTests: XCTestCase {
    func testEveryFamilyOnThePageHasAHelpLine() {
        let metrics = ServiceMetrics()
        _ = metrics.upstream()
        _ = AccessControl(proxies: .none, factory: metrics.factory)
        metrics.sampleAtScrape(QuotaReport(quota: UpstreamQuota()).sampler(factory: metrics.factory))
        metrics.http.record(healthAnswered(in: .milliseconds(1)))
        let lines = String(decoding: metrics.scrape(), as: UTF8.self).split(separator: "\n")
        let typed = lines.filter { $0.hasPrefix("# TYPE ") }.map { $0.split(separator: " ")[2] }
        // The shared feed's families exist only with --redis-url, the tracing ones only with an OTLP
        // endpoint, and a labelled family such as http_rejections_total appears with its first
        // series; every other description is on the page.
        let tracing = [TracingCounters.exportedName, TracingCounters.droppedName, TracingCounters.failuresName]
        let expected = Set(ServiceMetrics.descriptions.map(\.name))
            .subtracting(SharedFeedMetrics.descriptions.map(\.name)).subtracting([HTTPMetrics.rejectionsName]).subtracting(tracing)
        XCTAssertEqual(Set(typed.map(String.init)), expected, "one family per description")
        for family in typed {
            XCTAssertTrue(lines.contains { $0.hasPrefix("# HELP \(family) ") }, "\(family) has no description")
        }
    }

    func testRequestDurationKeepsItsThirteenBucketsFromOneMillisecondToTenSeconds() {
        let metrics = ServiceMetrics()
        metrics.http.record(healthAnswered(in: .milliseconds(30)))
        let page = String(decoding: metrics.scrape(), as: UTF8.self)
        let bounds = ["0.001", "0.0025", "0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1.0", "2.5", "5.0", "10.0", "+Inf"]
        let counts = bounds.map { PrometheusSample.value(of: #"http_request_duration_seconds_bucket{route="/health",le="\#($0)"}"#, in: page) }
        XCTAssertEqual(counts, [0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1], page)
    }

    func testUpstreamDurationKeepsItsElevenBucketsFromFiveMillisecondsToTenSeconds() {
        let metrics = ServiceMetrics()
        _ = metrics.upstream()
        let page = String(decoding: metrics.scrape(), as: UTF8.self)
        let bounds = ["0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1.0", "2.5", "5.0", "10.0", "+Inf"]
        let counts = bounds.map { PrometheusSample.value(of: #"upstream_request_duration_seconds_bucket{le="\#($0)"}"#, in: page) }
        XCTAssertEqual(counts, Array(repeating: 0, count: bounds.count), page)
    }

    func testLiveStreamSubscriptionsAreReadAtScrapeTime() throws {
        let metrics = ServiceMetrics()
        let subscriptions = (0..<1000).map { _ in DataStream<Int>.never().watch { _ in } }
        let during = try XCTUnwrap(metrics.sample("stream_subscriptions_live"))
        subscriptions.forEach { $0.dispose() }
        let after = try XCTUnwrap(metrics.sample("stream_subscriptions_live"))
        // Earlier tests' servers may still be releasing subscriptions on background queues.
        XCTAssertEqual(during - after, 1000, accuracy: 50)
    }

    func testTwoApplicationsCountIntoTheirOwnRegistries() {
        let first = ServiceMetrics(), second = ServiceMetrics()
        first.http.connectionsChanged(to: 4)
        XCTAssertEqual(first.sample("http_connections_open"), 4)
        XCTAssertEqual(second.sample("http_connections_open"), 0)
    }

    /// A `/health` request answered with 200 after `duration`.
    private func healthAnswered(in duration: Duration) -> CompletedRequest {
        CompletedRequest(
            method: .get, path: "/health", target: "/health", routePattern: "/health", status: 200, duration: duration,
            bodyBytes: 15, requestID: "r", remoteAddress: "127.0.0.1:1", userAgent: nil, completed: true)
    }
}
