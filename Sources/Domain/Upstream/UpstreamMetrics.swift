import ConcurrencyHelpers
import NetCore
import Synchronization

/// Counters for upstream traffic, rendered in Prometheus text format for `/metrics`.
/// Kept in Domain so the client needs no server code; the metrics route appends `render()`.
public final class UpstreamMetrics: Sendable {
    public enum Outcome: String, Sendable, CaseIterable {
        case success, clientError = "client_error", serverError = "server_error"
        case rateLimited = "rate_limited", timeout, connectionError = "connection_error", cancelled
    }

    /// Upper bounds of the duration histogram, in seconds.
    public static let bucketBounds: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private struct State {
        var outcomes: [Outcome: Int] = [:]
        var retries = 0
        var bucketCounts = [Int](repeating: 0, count: UpstreamMetrics.bucketBounds.count)
        var durationCount = 0
        var durationSum = 0.0
    }

    private let state = Locked(State())
    private let inFlightGauge = Atomic<Int>(0)

    public init() {}

    public static let shared = UpstreamMetrics()

    public var inFlight: Int { inFlightGauge.load(ordering: .relaxed) }
    public var retries: Int { state.withLock { $0.retries } }
    public func requests(_ outcome: Outcome) -> Int { state.withLock { $0.outcomes[outcome, default: 0] } }

    func attemptStarted() { inFlightGauge.add(1, ordering: .relaxed) }

    func attemptFinished(_ outcome: Outcome, seconds: Double) {
        inFlightGauge.subtract(1, ordering: .relaxed)
        state.withLock { state in
            state.outcomes[outcome, default: 0] += 1
            state.durationCount += 1
            state.durationSum += seconds
            for (index, bound) in Self.bucketBounds.enumerated() where seconds <= bound {
                state.bucketCounts[index] += 1
            }
        }
    }

    func retried() { state.withLock { $0.retries += 1 } }

    /// The four upstream metric families in Prometheus text exposition format.
    public func render() -> String {
        let snapshot = state.withLock { $0 }
        var lines = [
            "# HELP upstream_requests_total Upstream HTTP attempts by outcome.",
            "# TYPE upstream_requests_total counter",
        ]
        for outcome in Outcome.allCases {
            lines.append("upstream_requests_total{outcome=\"\(outcome.rawValue)\"} \(snapshot.outcomes[outcome, default: 0])")
        }
        lines += [
            "# HELP upstream_retries_total Upstream attempts repeated after a retryable failure.",
            "# TYPE upstream_retries_total counter",
            "upstream_retries_total \(snapshot.retries)",
            "# HELP upstream_request_duration_seconds Duration of upstream attempts.",
            "# TYPE upstream_request_duration_seconds histogram",
        ]
        for (index, bound) in Self.bucketBounds.enumerated() {
            lines.append("upstream_request_duration_seconds_bucket{le=\"\(bound)\"} \(snapshot.bucketCounts[index])")
        }
        lines += [
            "upstream_request_duration_seconds_bucket{le=\"+Inf\"} \(snapshot.durationCount)",
            "upstream_request_duration_seconds_sum \(snapshot.durationSum)",
            "upstream_request_duration_seconds_count \(snapshot.durationCount)",
            "# HELP upstream_in_flight Upstream requests currently waiting for an answer.",
            "# TYPE upstream_in_flight gauge",
            "upstream_in_flight \(inFlight)",
        ]
        return lines.joined(separator: "\n") + "\n"
    }
}
