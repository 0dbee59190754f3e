import ConcurrencyHelpers
import NetCore

/// A value that goes up and down, either set by the app or read from a closure
/// at scrape time (`stream_subscriptions_live` reads the Streams counter).
public final class Gauge: MetricFamily {
    public let name: String
    let help: String
    private let stored = Locked<Double>(0)
    private let sample: (@Sendable () -> Double)?

    init(name: String, help: String, sample: (@Sendable () -> Double)? = nil) {
        self.name = name
        self.help = help
        self.sample = sample
    }

    public var value: Double { sample?() ?? stored.withLock { $0 } }

    public func set(_ value: Double) { stored.withLock { $0 = value } }
    public func increment(by amount: Double = 1) { stored.withLock { $0 += amount } }
    public func decrement(by amount: Double = 1) { stored.withLock { $0 -= amount } }

    func render() -> String {
        PrometheusText.header(name: name, help: help, type: "gauge") + "\(name) \(PrometheusText.value(value))\n"
    }
}
