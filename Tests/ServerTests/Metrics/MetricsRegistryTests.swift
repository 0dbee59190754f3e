import XCTest
@testable import Server
import HTTP
import HTTPTestSupport

final class MetricsRegistryTests: XCTestCase {
    func testCounterRendersOneSampleLinePerLabelCombination() {
        let registry = MetricsRegistry()
        let counter = registry.counter("requests_total", help: "Requests.", labels: ["method", "status"])
        counter.increment(["GET", "200"])
        counter.increment(["GET", "200"])
        counter.increment(["POST", "500"])
        XCTAssertEqual(registry.render(), """
            # HELP requests_total Requests.
            # TYPE requests_total counter
            requests_total{method="GET",status="200"} 2
            requests_total{method="POST",status="500"} 1

            """)
    }

    func testUnlabelledCounterStartsAtZero() {
        let registry = MetricsRegistry()
        _ = registry.counter("things_total", help: "Things.")
        XCTAssertTrue(registry.render().contains("\nthings_total 0\n"))
    }

    func testLabelValuesAreEscaped() {
        let registry = MetricsRegistry()
        registry.counter("c_total", help: "C.", labels: ["path"]).increment(["a\"b\\c\nd"])
        XCTAssertTrue(registry.render().contains(#"c_total{path="a\"b\\c\nd"} 1"#))
    }

    func testGaugeCanBeSetAndMoved() {
        let registry = MetricsRegistry()
        let gauge = registry.gauge("open", help: "Open.")
        gauge.set(5)
        gauge.increment()
        gauge.decrement(by: 2)
        XCTAssertTrue(registry.render().contains("# TYPE open gauge\nopen 4\n"))
    }

    func testSampledGaugeIsReadAtRenderTime() {
        let registry = MetricsRegistry()
        let source = SampleSource()
        registry.gauge("sampled", help: "Sampled.") { source.value }
        source.value = 3
        XCTAssertTrue(registry.render().contains("sampled 3\n"))
        source.value = 9
        XCTAssertTrue(registry.render().contains("sampled 9\n"))
    }

    func testHistogramBucketsAreCumulativeWithSumAndCount() {
        let registry = MetricsRegistry()
        let histogram = registry.histogram("latency_seconds", help: "Latency.", buckets: [0.1, 1])
        histogram.observe(0.05)
        histogram.observe(0.5)
        histogram.observe(3)
        XCTAssertEqual(registry.render(), """
            # HELP latency_seconds Latency.
            # TYPE latency_seconds histogram
            latency_seconds_bucket{le="0.1"} 1
            latency_seconds_bucket{le="1"} 2
            latency_seconds_bucket{le="+Inf"} 3
            latency_seconds_sum 3.55
            latency_seconds_count 3

            """)
    }

    func testLabelledHistogramPutsLeAfterItsLabels() {
        let registry = MetricsRegistry()
        registry.histogram("d_seconds", help: "D.", labels: ["route"], buckets: [1]).observe(0.5, ["/health"])
        XCTAssertTrue(registry.render().contains(#"d_seconds_bucket{route="/health",le="1"} 1"#))
        XCTAssertTrue(registry.render().contains(#"d_seconds_count{route="/health"} 1"#))
    }

    func testCollectorsAreAppendedInRegistrationOrder() {
        let registry = MetricsRegistry()
        _ = registry.gauge("first", help: "First.")
        registry.addCollector { "# TYPE external gauge\nexternal 1" }
        let rendered = registry.render()
        XCTAssertTrue(rendered.hasSuffix("first 0\n# TYPE external gauge\nexternal 1\n"), rendered)
    }

    func testConcurrentIncrementsAreAllCounted() {
        let registry = MetricsRegistry()
        let counter = registry.counter("n_total", help: "N.")
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<1000 { counter.increment() }
        }
        XCTAssertEqual(counter.value(), 8000)
    }
}

/// A value a sampled gauge reads; locked because the registry may read it from any thread.
private final class SampleSource: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = 0.0
    var value: Double {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
