import ConcurrencyHelpers
import NetCore

/// A monotonically increasing count, one per combination of label values
/// (`http_requests_total{method="GET",route="/health",status="200"}`).
public final class Counter: MetricFamily {
    public let name: String
    let help: String
    let labelNames: [String]
    private let values = Locked<[[String]: Double]>([:])

    init(name: String, help: String, labelNames: [String]) {
        self.name = name
        self.help = help
        self.labelNames = labelNames
    }

    /// Adds `amount` (not negative) to the series with these label values, in `labelNames` order.
    public func increment(_ labelValues: [String] = [], by amount: Double = 1) {
        precondition(labelValues.count == labelNames.count, "\(name) takes labels \(labelNames)")
        guard amount >= 0 else { return }
        values.withLock { $0[labelValues, default: 0] += amount }
    }

    /// The current value of one series (0 when never incremented).
    public func value(_ labelValues: [String] = []) -> Double {
        values.withLock { $0[labelValues] ?? 0 }
    }

    func render() -> String {
        let snapshot = values.withLock { $0 }
        var out = PrometheusText.header(name: name, help: help, type: "counter")
        if snapshot.isEmpty && labelNames.isEmpty {
            out += "\(name) 0\n"
        }
        for (labels, value) in snapshot.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            out += "\(name)\(PrometheusText.labels(labelNames, labels)) \(PrometheusText.value(value))\n"
        }
        return out
    }
}
