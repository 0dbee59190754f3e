// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import CoreMetrics
import Prometheus
import XCTest
@testable import Server

final class DescribedPrometheusFactoryTests: XCTestCase {
    let registry = PrometheusCollectorRegistry()

    func factory(_ descriptions: [MetricDescription]) -> DescribedPrometheusFactory {
        DescribedPrometheusFactory(registry: registry, descriptions: descriptions)
    }

    var page: String { registry.emitToString() }

    func testACounterRendersHelpTypeAndOneLinePerLabelCombination() {
        let factory = factory([MetricDescription("requests_total", help: "Requests.")])
        CoreMetrics.Counter(label: "requests_total", dimensions: [("method", "GET"), ("status", "200")], factory: factory).increment(by: 2)
        CoreMetrics.Counter(label: "requests_total", dimensions: [("method", "POST"), ("status", "500")], factory: factory).increment()
        let lines = page.split(separator: "\n")
        XCTAssertEqual(Array(lines.prefix(2)), ["# HELP requests_total Requests.", "# TYPE requests_total counter"])
        XCTAssertEqual(Set(lines.dropFirst(2)), [
            #"requests_total{method="GET",status="200"} 2"#, #"requests_total{method="POST",status="500"} 1"#,
        ])
    }

    func testTheSameSeriesMadeTwiceCountsInOnePlace() {
        let factory = factory([MetricDescription("n_total", help: "N.")])
        for _ in 0..<3 { CoreMetrics.Counter(label: "n_total", dimensions: [("route", "/a")], factory: factory).increment() }
        XCTAssertEqual(PrometheusSample.value(of: #"n_total{route="/a"}"#, in: page), 3)
    }

    func testATimerIsAHistogramOverTheDescribedBuckets() {
        let factory = factory([MetricDescription("latency_seconds", help: "Latency.", buckets: [.milliseconds(100), .seconds(1)])])
        let timer = CoreMetrics.Timer(label: "latency_seconds", dimensions: [("route", "/health")], factory: factory)
        timer.recordNanoseconds(50_000_000)
        timer.recordNanoseconds(500_000_000)
        timer.recordNanoseconds(3_000_000_000)
        XCTAssertEqual(page, """
            # HELP latency_seconds Latency.
            # TYPE latency_seconds histogram
            latency_seconds_bucket{route="/health",le="0.1"} 1
            latency_seconds_bucket{route="/health",le="1.0"} 2
            latency_seconds_bucket{route="/health",le="+Inf"} 3
            latency_seconds_sum{route="/health"} 3.55
            latency_seconds_count{route="/health"} 3

            """)
    }

    func testAMeterIsAGaugeThatMovesBothWays() {
        let factory = factory([MetricDescription("open", help: "Open.")])
        let meter = Meter(label: "open", factory: factory)
        meter.set(5)
        meter.increment()
        meter.decrement(by: 2)
        XCTAssertEqual(page, "# HELP open Open.\n# TYPE open gauge\nopen 4.0\n")
    }

    func testAnUndescribedMetricHasNoHelpLineAndSwiftPrometheusDefaultBuckets() {
        let timer = CoreMetrics.Timer(label: "library_seconds", factory: factory([]))
        timer.recordNanoseconds(1_000_000)
        XCTAssertFalse(page.contains("# HELP"), page)
        XCTAssertTrue(page.hasPrefix("# TYPE library_seconds histogram\nlibrary_seconds_bucket{le=\"0.005\"} 1\n"), page)
    }

    func testLabelValuesAreEscaped() {
        CoreMetrics.Counter(label: "c_total", dimensions: [("path", "a\"b\\c\nd")], factory: factory([])).increment()
        XCTAssertTrue(page.contains(#"c_total{path="a\"b\\c\nd"} 1"#), page)
    }
}
