// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTP
import NetCore
import StreamServiceConcurrency
import Streams

/// Why an upstream call failed, in the terms routes map to HTTP answers.
///
/// This file is the one place failures are classified: `init(classifying:)` for anything a
/// stream delivered, `init?(answer:now:)` for an HTTP answer that is not a success.
public enum UpstreamError: RetryAfterError, Sendable, Equatable, CustomStringConvertible {
    /// Could not connect, or the connection broke (including a body cut short).
    case connection(String)
    /// No complete answer within the per-attempt timeout (`after`).
    case timeout(after: Duration)
    /// The call's deadline (`after`) passed, retries and back-off included: not retried.
    case deadlineExceeded(after: Duration)
    /// The upstream answered with this status.
    case status(Int, retryAfterSeconds: Int?)
    /// GitHub's primary or secondary rate limit, or a 429: wait this long before asking again.
    case rateLimited(retryAfterSeconds: Int)
    /// The answer could not be understood (bad HTTP, unexpected JSON, a redirect loop).
    case malformed(String)

    public var description: String {
        switch self {
        case .connection(let reason): "upstream connection failed: \(reason)"
        case .timeout(let after): "upstream gave no answer within \(after.text)"
        case .deadlineExceeded(let after): "upstream call passed its \(after.text) deadline"
        case .status(let code, _): "upstream answered \(code)"
        case .rateLimited(let seconds): "upstream rate limit reached; retry after \(seconds) s"
        case .malformed(let reason): "upstream answer malformed: \(reason)"
        }
    }

    /// Connection errors, timeouts, 5xx and rate limits are worth another try; other 4xx
    /// never. Whether a server-named wait is short enough is `RetryPolicy`'s call.
    public var isRetryable: Bool {
        switch self {
        case .connection, .timeout, .rateLimited: true
        case .status(let code, _): code >= 500
        case .malformed, .deadlineExceeded: false
        }
    }

    /// A server-requested wait before the next attempt, when it named one.
    public var retryAfterSeconds: Int? {
        switch self {
        case .status(_, let seconds): seconds
        case .rateLimited(let seconds): seconds
        default: nil
        }
    }

    /// `retryAfterSeconds` as `RetryBackoff.honouringRetryAfter(…)` reads it.
    public var retryAfter: Duration? { retryAfterSeconds.map { .seconds($0) } }

    /// Any error a call's stream delivered, classified. An error of unknown kind can only
    /// come from the transport (decoding failures are classified where they happen), so it
    /// counts as a connection failure, retryable like one.
    public init(classifying error: any Error) {
        switch error {
        case let upstream as UpstreamError: self = upstream
        case let failure as UpstreamFailure: self = failure.error
        case HTTPClientError.connection(let reason): self = .connection(reason)
        case HTTPClientError.malformed(let reason): self = .malformed(reason)
        case HTTPClientError.timedOut(let after): self = .timeout(after: after)
        case let answer as HTTPStatusError:
            // From a client whose status policy fails answers: classified as the answer itself.
            self = UpstreamError(answer: UpstreamResponse(answer.response)) ?? .status(answer.status.code, retryAfterSeconds: nil)
        case let timedOut as StreamTimeoutError: self = .timeout(after: timedOut.timeout)
        case is DecodingError: self = .malformed(String(describing: error))
        default: self = .connection(String(describing: error))
        }
    }

    /// The error a non-2xx answer stands for, nil for a 2xx.
    ///
    /// GitHub's documented rate-limit answers: a 403 or 429 with `x-ratelimit-remaining: 0`
    /// (primary limit), or with `retry-after` or a "secondary rate limit" message
    /// (secondary limit); every 429. The wait is `retry-after`, else `x-ratelimit-reset`
    /// minus now, else 60 s, as GitHub's "Rate limits for the REST API" page advises.
    /// `retry-after` is read by the HTTP library's `RetryAfter` (seconds or an HTTP-date, a bad
    /// value ignored), its wait rounded up to whole seconds.
    public init?(answer response: UpstreamResponse, now: Date = Date()) {
        guard !(200..<300).contains(response.status) else { return nil }
        let retryAfter = response.header("retry-after").flatMap { RetryAfter($0) }.map { Self.wholeSeconds($0.delay(from: now)) }
        let exhausted = response.header("x-ratelimit-remaining")?.trimmingWhitespace() == "0"
        let secondary = String(decoding: response.body.prefix(4096), as: UTF8.self).lowercased().contains("secondary rate limit")
        let isRateLimit = response.status == 429 || (response.status == 403 && (exhausted || secondary || retryAfter != nil))
        guard isRateLimit else {
            self = .status(response.status, retryAfterSeconds: retryAfter)
            return
        }
        let untilReset = response.header("x-ratelimit-reset").flatMap { Double($0.trimmingWhitespace()) }
            .flatMap { RateLimitReset.secondsUntil($0, now: now.timeIntervalSince1970) }
        self = .rateLimited(retryAfterSeconds: max(0, retryAfter ?? (exhausted ? untilReset : nil) ?? 60))
    }

    /// `wait` in whole seconds, a part of one counted as one (never waiting less than asked).
    private static func wholeSeconds(_ wait: Duration) -> Int {
        let (seconds, attoseconds) = wait.components
        return Int(clamping: seconds) + (attoseconds > 0 ? 1 : 0)
    }
}
