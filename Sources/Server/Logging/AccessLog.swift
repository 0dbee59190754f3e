import StreamServiceConcurrency
import HTTP
import Logging

/// One structured line per answered request.
public struct AccessLog: Sendable {
    public let logger: Logger

    public init(logger: Logger) {
        self.logger = logger
    }

    public func record(_ request: CompletedRequest) {
        guard logger.logLevel <= .info else { return }
        let milliseconds = (request.duration.seconds * 1_000_000).rounded() / 1000
        var metadata: Logger.Metadata = [
            "method": .string(request.method.rawValue),
            "path": .string(request.path),
            "route": .string(request.routePattern ?? HTTPMetrics.unmatchedRoute),
            "status": .stringConvertible(request.status),
            "bytes": .stringConvertible(request.bodyBytes),
            "duration_ms": .stringConvertible(milliseconds),
            "request_id": .string(request.requestID),
            "remote": .string(request.remoteAddress),
            "protocol": .string(request.protocolLabel.rawValue),
        ]
        if !request.completed { metadata["aborted"] = .stringConvertible(true) }
        logger.info("\(request.method.rawValue) \(request.target) \(request.status)", metadata: metadata)
    }

    /// A line for the HTTP/2 events that deserve one: resets and GOAWAYs this side sends, GOAWAYs it
    /// receives, abnormal resets, and every limit a peer ran into (the abuse defences).
    public func record(_ event: HTTP2Event) {
        guard event.isNotable else { return }
        var metadata: Logger.Metadata = [
            "protocol": "h2",
            "event": .string(event.kind.rawValue),
            "remote": .string(event.remoteAddress),
        ]
        if event.streamID != 0 { metadata["stream"] = .stringConvertible(event.streamID) }
        if let code = event.code { metadata["code"] = .string(code.description) }
        if let reason = event.reason { metadata["reason"] = .string(reason) }
        let message = "HTTP/2 \(event.kind.rawValue)\(event.code.map { " \($0)" } ?? "")\(event.reason.map { ": \($0)" } ?? "")"
        if event.kind == .limitExceeded { logger.warning("\(message)", metadata: metadata) } else { logger.notice("\(message)", metadata: metadata) }
    }
}
