// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// A request (or connection) the server answered itself with an error before any handler
/// ran: unparseable or over a limit (400, 413, 414, 417, 431, 501, 505), too slow (408), or
/// over a connection limit (503). Reported to `HTTPServerObserver.requestRejected` and counted
/// in `http_rejections_total{status,reason}`.
public struct Rejection: Sendable, Equatable {
    /// Why, as a metric label: a fixed set, so a flood of odd requests cannot grow the series.
    public enum Reason: String, Sendable, CaseIterable {
        case malformed
        case requestLineTooLong = "request_line_too_long"
        case headersTooLarge = "headers_too_large"
        case bodyTooLarge = "body_too_large"
        case unsupportedVersion = "unsupported_version"
        case unsupportedTransferCoding = "unsupported_transfer_coding"
        case unsupportedExpectation = "unsupported_expectation"
        case headerTimeout = "header_timeout"
        case bodyTimeout = "body_timeout"
        case tooManyConnections = "too_many_connections"
        case tooManyConnectionsPerClient = "too_many_connections_per_client"
    }

    public var status: Int
    public var reason: Reason
    /// The sentence the client got in its problem's `detail`.
    public var detail: String
    /// `host:port` of the peer.
    public var remoteAddress: String

    public init(status: Int, reason: Reason, detail: String, remoteAddress: String) {
        self.status = status
        self.reason = reason
        self.detail = detail
        self.remoteAddress = remoteAddress
    }
}

extension HTTPParseError {
    var rejectionReason: Rejection.Reason {
        switch self {
        case .requestLineTooLong: .requestLineTooLong
        case .headersTooLarge: .headersTooLarge
        case .bodyTooLarge: .bodyTooLarge
        case .malformed: .malformed
        case .unsupportedVersion: .unsupportedVersion
        case .unsupportedTransferCoding: .unsupportedTransferCoding
        case .unsupportedExpectation: .unsupportedExpectation
        }
    }
}
