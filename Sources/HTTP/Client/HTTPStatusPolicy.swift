// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Which answers `HTTPClient.send` delivers as an `HTTPStatusError` instead of a response.
///
/// By default (`deliverAll`) every status is a response, so `retry` sees no error in a 503.
/// With `failRetryable` the answers worth asking again fail the exchange, and `retry` with
/// `RetryBackoff.honouringRetryAfter(…)` tries again, waiting the server's `Retry-After`:
///
///     let client = HTTPClient(statusPolicy: .failRetryable)
///     client.send(request)                        // 503, Retry-After: 2 → #(HTTPStatusError)
///         .retry(3, backoff: .honouringRetryAfter(), scheduler: scheduler)
///                                                 // waits 2 s, sends again
public struct HTTPStatusPolicy: Sendable {
    /// Whether an answer with this status fails the exchange.
    public let fails: @Sendable (HTTPStatus) -> Bool
    /// True for `deliverAll`: the client then asks nothing per answer.
    @usableFromInline let deliversAll: Bool

    /// A policy failing the answers whose status `fails` accepts.
    public init(fails: @escaping @Sendable (HTTPStatus) -> Bool) {
        self.fails = fails
        deliversAll = false
    }

    private init(deliveringAll: Void) {
        fails = { _ in false }
        deliversAll = true
    }

    /// Every status is delivered as a response (the default).
    public static let deliverAll = HTTPStatusPolicy(deliveringAll: ())

    /// A 5xx or a 429 fails the exchange: the answers that may differ when asked again (RFC 9110
    /// §15.6, RFC 6585 §4). Other 4xx and all 1xx–3xx are delivered as responses.
    public static let failRetryable = HTTPStatusPolicy { $0.isRetryable }
}

extension HTTPStatus {
    /// A 5xx or a 429: the server may answer differently when asked again (`HTTPStatusPolicy.failRetryable`).
    public var isRetryable: Bool { (500..<600).contains(code) || code == 429 }
}
