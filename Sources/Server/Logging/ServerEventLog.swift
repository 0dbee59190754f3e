// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import Logging
import NetCore
import StreamServiceConcurrency

/// What the HTTP server does on its own, in the log: the answers it gives before any handler
/// (rejections), accept pauses when descriptors run out, what the shutdown deadline cut, and the
/// HTTP/2 resets, GOAWAYs and abuse limits it met.
struct ServerEventLog: Sendable {
    /// A flood of bad requests must not fill the disk, nor one client's flood hide another's lines:
    /// each client address gets 20 lines at once, then one a second, and all clients together 60
    /// at once, then 5 a second — lines of about 200 bytes, so at most about 90 MB a day;
    /// `http_rejections_total` and the `http2_*` metrics still count every one, and each line says
    /// how many of its client's were left out before it.
    static let rejectionBurst = 20
    static let rejectionsPerSecond = 1.0
    static let perClient = LogTokenBucket.Rate(burst: rejectionBurst, perSecond: rejectionsPerSecond)
    static let overall = LogTokenBucket.Rate(burst: 60, perSecond: 5)
    /// Clients with a bucket of their own (about 100 bytes each); beyond, quiet ones are forgotten.
    static let trackedClients = 4096

    let logger: Logger
    private let rejections = ClientLogLimiter(perClient: perClient, overall: overall, maxClients: trackedClients)
    /// HTTP/2's notable events, bounded as rejections are: a flood of stream errors from many
    /// connections is many lines otherwise.
    private let http2Events = ClientLogLimiter(perClient: perClient, overall: overall, maxClients: trackedClients)

    /// Handler failures, bounded as rejections are: one failing dependency under load fails every request.
    private let failures = ClientLogLimiter(perClient: perClient, overall: overall, maxClients: trackedClients)

    init(logger: Logger) {
        self.logger = logger
    }

    func rejected(_ rejection: Rejection) {
        guard logger.logLevel <= .info, let leftOut = rejections.admit(from: rejection.remoteAddress) else { return }
        var metadata: Logger.Metadata = [
            "status": .stringConvertible(rejection.status),
            "reason": .string(rejection.reason.rawValue),
            "remote": .string(rejection.remoteAddress),
        ]
        if leftOut > 0 { metadata["rejections_not_logged"] = .stringConvertible(leftOut) }
        logger.info("rejected \(rejection.status): \(rejection.detail)", metadata: metadata)
    }

    /// Resets and GOAWAYs this side sends, GOAWAYs it receives, abnormal resets, and every limit a
    /// peer ran into (the abuse defences), at notice, limits at warning.
    func http2(_ event: HTTP2Event) {
        guard event.isNotable, let leftOut = http2Events.admit(from: event.remoteAddress) else { return }
        var metadata: Logger.Metadata = [
            "protocol": "h2",
            "event": .string(event.kind.rawValue),
            "remote": .string(event.remoteAddress),
        ]
        if event.streamID != 0 { metadata["stream"] = .stringConvertible(event.streamID) }
        if let code = event.code { metadata["code"] = .string(code.description) }
        if let reason = event.reason { metadata["reason"] = .string(reason) }
        if leftOut > 0 { metadata["http2_events_not_logged"] = .stringConvertible(leftOut) }
        let message = "HTTP/2 \(event.kind.rawValue)\(event.code.map { " \($0)" } ?? "")\(event.reason.map { ": \($0)" } ?? "")"
        if event.kind == .limitExceeded { logger.warning("\(message)", metadata: metadata) } else { logger.notice("\(message)", metadata: metadata) }
    }

    /// The error a client's generic 500 did not show, with the request id that client was given.
    func handlerFailed(_ failure: HandlerFailure) {
        guard let leftOut = failures.admit(from: failure.remoteAddress) else { return }
        var metadata: Logger.Metadata = [
            "request_id": .string(failure.requestID),
            "method": .string(failure.method.rawValue),
            "path": .string(failure.path),
            "remote": .string(failure.remoteAddress),
        ]
        if leftOut > 0 { metadata["failures_not_logged"] = .stringConvertible(leftOut) }
        logger.error("handler failed: \(failure.error)", metadata: metadata)
    }

    func acceptPause(_ pause: AcceptPause) {
        switch pause {
        case .paused(let error):
            logger.warning(
                "accepting paused: \(error); new connections wait in the backlog, retried every \(AcceptPause.retryInterval.text)",
                metadata: ["errno": .stringConvertible(error.code)])
        case .resumed(let duration, let retries):
            logger.info("accepting again after \(duration.text)", metadata: ["retries": .stringConvertible(retries)])
        }
    }

    func deadlineReached(_ report: ShutdownDeadline, deadline: Duration) {
        logger.warning(
            "shutdown deadline of \(deadline.text) reached: requests answered 503: \(report.answered), streams ended: \(report.ended), responses cut: \(report.cut), idle connections closed: \(report.idle)",
            metadata: [
                "answered_503": .stringConvertible(report.answered), "streams_ended": .stringConvertible(report.ended),
                "responses_cut": .stringConvertible(report.cut), "idle_closed": .stringConvertible(report.idle),
            ])
    }
}
