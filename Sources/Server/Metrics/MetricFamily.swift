/// Something the registry renders into the `/metrics` page.
protocol MetricFamily: Sendable {
    var name: String { get }
    /// The family in Prometheus text format, ending with a newline.
    func render() -> String
}
