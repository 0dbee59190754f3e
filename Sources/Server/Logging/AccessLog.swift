// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

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
            // A token in the query or chosen as the request id is never written (SecretRedaction).
            "request_id": .string(SecretRedaction.requestID(request.requestID)),
            "remote": .string(request.remoteAddress),
            "protocol": .string(request.protocolLabel.rawValue),
        ]
        if !request.completed { metadata["aborted"] = .stringConvertible(true) }
        // The request's SERVER span, so a line leads to its trace (and the trace to the line).
        if let trace = request.trace {
            metadata["trace_id"] = .string(trace.traceID)
            metadata["span_id"] = .string(trace.spanID)
        }
        logger.info("\(request.method.rawValue) \(SecretRedaction.target(request.target)) \(request.status)", metadata: metadata)
    }
}
