// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTP
import StreamServiceConcurrency

/// The operator's upstream rate limit as the upstream last reported it (`x-ratelimit-limit`,
/// `-remaining`, `-reset`), and the reserve kept back from clients: once `remaining` falls to
/// the reserve, new uncached work waits for the reset (see `QuotaTransport`), while cached
/// answers and their revalidations (a 304 costs nothing) are still served. So one heavy client
/// cannot leave the service dark for the rest of the hour, and the operator keeps requests.
public final class UpstreamQuota: Sendable {
    public struct Snapshot: Sendable, Equatable {
        public var limit: Int
        public var remaining: Int
        /// Epoch seconds at which the window starts over.
        public var reset: Double
    }

    /// Requests kept back; nil = a tenth of the reported limit (500 of GitHub's 5,000 an hour).
    public let reserve: Int?
    /// False for an upstream that reports a limit it does not enforce (the demo without a limit
    /// set reports GitHub's 5,000 and counts down, but never refuses): its quota is watched and
    /// reported, and nothing is held back, so it does not go dark after 4,500 requests an hour.
    public let holdsBack: Bool
    private let last = Locked<Snapshot?>(nil)

    public init(reserve: Int? = nil, holdsBack: Bool = true) {
        self.reserve = reserve
        self.holdsBack = holdsBack
    }

    /// The last report; nil before any answer carried one.
    public var snapshot: Snapshot? { last.withLock { $0 } }

    /// The reserve for a reported `limit`.
    public func reserve(for limit: Int) -> Int { holdsBack ? reserve ?? limit / 10 : 0 }

    /// Reads the rate-limit fields of an answer, when it has them: as the HTTP client's parser
    /// noted them while it walked the head, else from the fields (`report(readingFieldsOf:)`).
    func observe(_ response: UpstreamResponse) {
        guard let report = Self.report(of: response) else { return }
        last.withLock { $0 = report }
    }

    /// The report an answer carries, nil without a complete one.
    static func report(of response: UpstreamResponse) -> Snapshot? {
        switch response.rateLimit {
        case .absent: nil
        case .numbers(let limit, let remaining, let reset): Snapshot(limit: limit, remaining: remaining, reset: Double(reset))
        case .unread: report(readingFieldsOf: response)
        }
    }

    /// The slow twin of the parser's reading: three field lookups and conversions.
    static func report(readingFieldsOf response: UpstreamResponse) -> Snapshot? {
        guard let remaining = response.header("x-ratelimit-remaining").flatMap({ Int($0.trimmingWhitespace()) }),
              let limit = response.header("x-ratelimit-limit").flatMap({ Int($0.trimmingWhitespace()) }),
              let reset = response.header("x-ratelimit-reset").flatMap({ Double($0.trimmingWhitespace()) }) else { return nil }
        return Snapshot(limit: limit, remaining: remaining, reset: reset)
    }

    /// Seconds until the reset while the reserve is reached; nil while clients may spend.
    public func reservedWait(now: Double = Date().timeIntervalSince1970) -> Int? {
        guard holdsBack, let snapshot, snapshot.remaining <= reserve(for: snapshot.limit), now < snapshot.reset else { return nil }
        return RateLimitReset.secondsUntil(snapshot.reset, now: now)
    }
}
