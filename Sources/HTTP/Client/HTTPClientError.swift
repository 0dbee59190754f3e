// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency

/// Why `HTTPClient` delivered no response. Any status the peer answers is a response, not an
/// error, unless the client's `HTTPStatusPolicy` makes it an `HTTPStatusError`.
public enum HTTPClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Could not connect in time, or the connection broke (including a body cut short).
    case connection(String)
    /// The peer's answer was not HTTP/1.1 the parser accepts.
    case malformed(String)
    /// No complete answer within the request's `timeout` (`after`); the exchange was abandoned.
    case timedOut(after: Duration)

    /// What failed and why, for a log line.
    public var description: String {
        switch self {
        case .connection(let reason): "connection failed: \(reason)"
        case .malformed(let reason): "malformed response: \(reason)"
        case .timedOut(let after): "no complete response within \(after.text)"
        }
    }
}
