// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Streams

/// An answer `HTTPClient` delivered as an error because its `HTTPStatusPolicy` fails its status
/// (a 503, a 429 under `failRetryable`): the whole response, and the wait its `Retry-After` asks
/// for. As a `RetryAfterError` it makes `RetryBackoff.honouringRetryAfter(…)` wait that long.
public struct HTTPStatusError: RetryAfterError, Sendable, Equatable, CustomStringConvertible {
    /// The answer as received, body included (a problem document, a rate limit's fields).
    public let response: HTTPClientResponse
    /// The wait the answer's `Retry-After` asks for, measured when it arrived (a date already
    /// past is zero); nil without the field or with a value of neither form.
    public let retryAfter: Duration?

    /// `response` as an error; `now` is when it arrived, from which an HTTP-date `Retry-After` is counted.
    public init(_ response: HTTPClientResponse, now: Date = Date()) {
        self.response = response
        retryAfter = response.header("Retry-After").flatMap { RetryAfter($0) }.map { $0.delay(from: now) }
    }

    /// The answer's status.
    public var status: HTTPStatus { response.status }

    /// The status, and the wait when the server named one, for a log line.
    public var description: String {
        guard let retryAfter else { return "the server answered \(status)" }
        return "the server answered \(status), retry after \(retryAfter)"
    }
}
