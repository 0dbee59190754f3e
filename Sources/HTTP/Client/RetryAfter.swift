// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NetCore

/// A `Retry-After` field's value (RFC 9110 §10.2.3): a number of seconds to wait, or the
/// HTTP-date to wait until.
///
///     RetryAfter("120")                            // .seconds(120)
///     RetryAfter("Wed, 21 Oct 2015 07:28:00 GMT")  // .date(…)
///     RetryAfter("soon")                           // nil: ignored
public enum RetryAfter: Sendable, Hashable {
    /// `Retry-After: 120`: wait this many seconds.
    case seconds(Int)
    /// `Retry-After: Wed, 21 Oct 2015 07:28:00 GMT`: wait until then.
    case date(Date)

    /// The field's value parsed, surrounding whitespace ignored; nil for a value of neither form
    /// (a negative or fractional number, one too large for an `Int`, a date that is no date).
    /// The value is the peer's to write: a bad one is ignored, never a failure.
    public init?(_ value: some StringProtocol) {
        let text = value.trimmingWhitespace()
        if let first = text.utf8.first, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") {
            guard text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let seconds = Int(text) else { return nil }
            self = .seconds(seconds)
        } else if let seconds = HTTPDate.secondsSince1970(text) {
            self = .date(Date(timeIntervalSince1970: Double(seconds)))
        } else {
            return nil
        }
    }

    /// How long to wait from `now`: the seconds, or the time until the date (zero once it passed).
    public func delay(from now: Date = Date()) -> Duration {
        switch self {
        case .seconds(let seconds): .seconds(seconds)
        case .date(let date): .seconds(max(0, date.timeIntervalSince(now)))
        }
    }
}
