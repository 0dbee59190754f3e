import ConcurrencyHelpers
import NetCore

/// The metric families the service exposes at `/metrics`, rendered in
/// registration order in Prometheus text format.
///
/// Code outside this module (Domain's upstream client) contributes through
/// `addCollector`, a closure returning already-formatted families, so Domain
/// needs no dependency on the server.
public final class MetricsRegistry: Sendable {
    private enum Entry: Sendable {
        case family(any MetricFamily)
        case collector(@Sendable () -> String)
    }

    private let entries = Locked<[Entry]>([])

    public init() {}

    public func counter(_ name: String, help: String, labels: [String] = []) -> Counter {
        register(Counter(name: name, help: help, labelNames: labels))
    }

    /// A gauge the app sets.
    public func gauge(_ name: String, help: String) -> Gauge {
        register(Gauge(name: name, help: help))
    }

    /// A gauge read from `sample` at every scrape.
    @discardableResult
    public func gauge(_ name: String, help: String, sample: @escaping @Sendable () -> Double) -> Gauge {
        register(Gauge(name: name, help: help, sample: sample))
    }

    public func histogram(_ name: String, help: String, labels: [String] = [], buckets: [Double] = Histogram.defaultBuckets) -> Histogram {
        register(Histogram(name: name, help: help, labelNames: labels, buckets: buckets))
    }

    /// Adds families rendered elsewhere; `render` returns Prometheus text ending in a newline.
    public func addCollector(_ render: @escaping @Sendable () -> String) {
        entries.withLock { $0.append(.collector(render)) }
    }

    /// The whole page.
    public func render() -> String {
        let snapshot = entries.withLock { $0 }
        var out = ""
        for entry in snapshot {
            switch entry {
            case .family(let family): out += family.render()
            case .collector(let render):
                let text = render()
                out += text
                if !text.isEmpty && !text.hasSuffix("\n") { out += "\n" }
            }
        }
        return out
    }

    private func register<Family: MetricFamily>(_ family: Family) -> Family {
        entries.withLock { entries in
            let taken = entries.contains { entry in
                if case .family(let existing) = entry { return existing.name == family.name }
                return false
            }
            precondition(!taken, "metric \(family.name) registered twice")
            entries.append(.family(family))
        }
        return family
    }
}
