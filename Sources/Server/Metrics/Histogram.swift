import ConcurrencyHelpers
import NetCore

/// Observations counted into cumulative buckets, with their sum and count,
/// one series per combination of label values.
public final class Histogram: MetricFamily {
    /// Request latencies from 1 ms to 10 s.
    public static let defaultBuckets: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private struct Series {
        var bucketCounts: [UInt64]
        var sum = 0.0
        var count: UInt64 = 0
    }

    public let name: String
    let help: String
    let labelNames: [String]
    /// Upper bounds, ascending; `+Inf` is implied.
    let buckets: [Double]
    private let series = Locked<[[String]: Series]>([:])

    init(name: String, help: String, labelNames: [String], buckets: [Double]) {
        self.name = name
        self.help = help
        self.labelNames = labelNames
        self.buckets = buckets.sorted()
    }

    public func observe(_ value: Double, _ labelValues: [String] = []) {
        precondition(labelValues.count == labelNames.count, "\(name) takes labels \(labelNames)")
        // Only the first bucket that fits is counted here; rendering accumulates.
        let bucket = buckets.firstIndex { value <= $0 }
        series.withLock { all in
            var entry = all[labelValues] ?? Series(bucketCounts: [UInt64](repeating: 0, count: buckets.count))
            if let bucket { entry.bucketCounts[bucket] += 1 }
            entry.sum += value
            entry.count += 1
            all[labelValues] = entry
        }
    }

    /// Observations so far in one series.
    public func count(_ labelValues: [String] = []) -> UInt64 {
        series.withLock { $0[labelValues]?.count ?? 0 }
    }

    func render() -> String {
        let snapshot = series.withLock { $0 }
        var out = PrometheusText.header(name: name, help: help, type: "histogram")
        var all = snapshot.sorted { $0.key.lexicographicallyPrecedes($1.key) }
        if all.isEmpty && labelNames.isEmpty {
            all = [([], Series(bucketCounts: [UInt64](repeating: 0, count: buckets.count)))]
        }
        for (labels, entry) in all {
            var cumulative: UInt64 = 0
            for (bound, count) in zip(buckets, entry.bucketCounts) {
                cumulative += count
                let le = PrometheusText.labels(labelNames, labels, extra: ("le", PrometheusText.value(bound)))
                out += "\(name)_bucket\(le) \(cumulative)\n"
            }
            let infinity = PrometheusText.labels(labelNames, labels, extra: ("le", "+Inf"))
            out += "\(name)_bucket\(infinity) \(entry.count)\n"
            let plain = PrometheusText.labels(labelNames, labels)
            out += "\(name)_sum\(plain) \(PrometheusText.value(entry.sum))\n"
            out += "\(name)_count\(plain) \(entry.count)\n"
        }
        return out
    }
}
