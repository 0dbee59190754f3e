// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// An error that says how long to wait before trying again: a server's `Retry-After` on a 503 or
/// a 429 (`HTTPStatusError` in `HTTP`), a rate limit's reset.
///
/// `RetryBackoff.honouringRetryAfter(…)` waits this long instead of its back-off when a
/// retried error names a wait:
///
///     source (1st):    -#(retryAfter: 2 s)
///     source (2nd):                      -1|
///     retry(3, backoff: .honouringRetryAfter(), scheduler):
///                      ------ 2 s -------1|
public protocol RetryAfterError: Error {
    /// The wait the error's source asked for before the next attempt, or nil when it named none.
    var retryAfter: Duration? { get }
}

extension RetryBackoff {
    /// A back-off that waits a `RetryAfterError`'s `retryAfter` when the error names one, and
    /// otherwise the exponential, jittered delay; bounded by `maxTotalWait` in all (a server
    /// asking for a longer wait than is left gets its error delivered at once). `retry`'s count
    /// bounds the attempts:
    ///
    ///     client.send(request)      // an HTTPClient with `statusPolicy: .failRetryable`
    ///         .timeout(.seconds(2), scheduler: scheduler)
    ///         .retry(4, backoff: .honouringRetryAfter(maxTotalWait: .seconds(10)), scheduler: scheduler)
    ///
    /// The parameters are `init`'s; the server's wait replaces the computed one unshortened by
    /// jitter (but cut to `waitLimit`, when one is set).
    public static func honouringRetryAfter(
        initialDelay: Duration = .milliseconds(100),
        multiplier: Double = 2,
        maxDelay: Duration = .seconds(30),
        jitter: Double = 0.5,
        maxTotalWait: Duration? = .seconds(30),
        retryIf: @escaping @Sendable (Error) -> Bool = { _ in true },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        onRetry: @escaping @Sendable (Retry) -> Void = { _ in }
    ) -> RetryBackoff {
        RetryBackoff(
            initialDelay: initialDelay, multiplier: multiplier, maxDelay: maxDelay, jitter: jitter, maxTotalWait: maxTotalWait,
            retryIf: retryIf, delayOverride: retryAfter, random: random, onRetry: onRetry)
    }

    /// The wait a `RetryAfterError` names, for `delayOverride`; nil for any other error.
    public static let retryAfter: @Sendable (_ error: Error, _ retry: Int) -> Duration? = { error, _ in
        (error as? any RetryAfterError)?.retryAfter
    }
}
