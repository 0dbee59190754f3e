/// Callbacks for observability; they run on event-loop queues, so keep them cheap.
public struct HTTPServerObserver: Sendable {
    /// After each response (access log, `http_requests_total`, durations).
    public var requestCompleted: (@Sendable (CompletedRequest) -> Void)?
    /// When a connection opens or closes, with the new open-connection count
    /// (calls are serialised, so the last call always carries the current count).
    public var connectionsChanged: (@Sendable (Int) -> Void)?

    public init(
        requestCompleted: (@Sendable (CompletedRequest) -> Void)? = nil,
        connectionsChanged: (@Sendable (Int) -> Void)? = nil
    ) {
        self.requestCompleted = requestCompleted
        self.connectionsChanged = connectionsChanged
    }
}
