import Streams

/// `GET /ready`: 200 when the service can do its job, 503 when the upstream
/// probe fails or the server is shutting down (so a balancer stops sending traffic).
struct ReadinessRoute: Sendable {
    /// One element: whether the upstream answered. Supplied by Domain.
    let probe: @Sendable () -> DataStream<Bool>
    let isShuttingDown: @Sendable () -> Bool

    func handle(_ request: Request) -> DataStream<Response> {
        if isShuttingDown() {
            return .just(.problem(status: .serviceUnavailable, detail: "The server is shutting down", instance: request.path))
        }
        let probe = self.probe
        return DataStream { watcher in
            let answered = CompletionGate()
            let subscription = probe().watch { event in
                let reachable: Bool
                switch event {
                case .data(let value): reachable = value
                case .error, .end: reachable = false
                }
                guard answered.close() else { return }
                watcher.data(reachable ? .json(Array(#"{"status":"ready"}"#.utf8)) : .problem(status: .serviceUnavailable, detail: "The upstream is unreachable", instance: request.path))
                watcher.end()
            }
            return subscription
        }
    }
}
