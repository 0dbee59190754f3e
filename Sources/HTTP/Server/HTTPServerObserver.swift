/// Callbacks for observability; they run on event-loop queues, so keep them cheap.
public struct HTTPServerObserver: Sendable {
    /// After each response (access log, `http_requests_total`, durations).
    public var requestCompleted: (@Sendable (CompletedRequest) -> Void)?
    /// When a connection opens or closes, with the new open-connection count
    /// (calls are serialised, so the last call always carries the current count).
    public var connectionsChanged: (@Sendable (Int) -> Void)?
    /// HTTP/2 streams, resets, GOAWAYs, stalls and limits reached (`HTTP2Event.isNotable` ones deserve a log line).
    public var http2Event: (@Sendable (HTTP2Event) -> Void)?

    public init(
        requestCompleted: (@Sendable (CompletedRequest) -> Void)? = nil,
        connectionsChanged: (@Sendable (Int) -> Void)? = nil,
        http2Event: (@Sendable (HTTP2Event) -> Void)? = nil
    ) {
        self.requestCompleted = requestCompleted
        self.connectionsChanged = connectionsChanged
        self.http2Event = http2Event
    }
}
