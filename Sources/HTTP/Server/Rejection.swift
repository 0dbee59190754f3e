// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// A request (or connection) the server answered itself with an error before any handler
/// ran: unparseable or over a limit (400, 413, 414, 417, 431, 501, 505), too slow (408), or
/// over a connection limit (503). Reported to `HTTPServerObserver.requestRejected` and counted
/// in `http_rejections_total{status,reason}`.
public struct Rejection: Sendable, Equatable {
    /// Why, as a metric label: a fixed set, so a flood of odd requests cannot grow the series.
    public enum Reason: String, Sendable, CaseIterable {
        /// The request could not be parsed (400).
        case malformed
        /// The request line was longer than ``HTTPLimits/maxRequestLineBytes`` (414).
        case requestLineTooLong = "request_line_too_long"
        /// The header fields were over ``HTTPLimits/maxHeaderBytes`` or ``HTTPLimits/maxHeaderFields`` (431).
        case headersTooLarge = "headers_too_large"
        /// The body was over ``HTTPLimits/maxBodyBytes`` (413).
        case bodyTooLarge = "body_too_large"
        /// An HTTP version other than 1.0 and 1.1 on an HTTP/1 connection (505).
        case unsupportedVersion = "unsupported_version"
        /// A `Transfer-Encoding` other than `chunked` (501).
        case unsupportedTransferCoding = "unsupported_transfer_coding"
        /// An `Expect` other than `100-continue` (417).
        case unsupportedExpectation = "unsupported_expectation"
        /// The header fields did not arrive within ``HTTPTimeouts/header`` (408).
        case headerTimeout = "header_timeout"
        /// The body did not arrive within ``HTTPTimeouts/body`` (408).
        case bodyTimeout = "body_timeout"
        /// The server had ``HTTPLimits/maxConnections`` open already (503).
        case tooManyConnections = "too_many_connections"
        /// The client had ``HTTPLimits/maxConnectionsPerClient`` open already (503).
        case tooManyConnectionsPerClient = "too_many_connections_per_client"
    }

    /// The status code the client got.
    public var status: Int
    /// Why, as a metric label.
    public var reason: Reason
    /// The sentence the client got in its problem's `detail`.
    public var detail: String
    /// `host:port` of the peer.
    public var remoteAddress: String

    /// A rejection with these values (tests build their own to drive an observer).
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
