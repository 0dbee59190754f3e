// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// An answer's rate-limit fields in the `x-ratelimit-*` convention (GitHub's REST API and many
/// others): `x-ratelimit-limit`, `-remaining` and `-reset`, read by the response parser as it
/// walks the head, so a reader of the three needs no walk of the fields of its own.
///
/// `numbers` only when each of the three came exactly once as plain decimal digits; `absent` when
/// none came. Anything else (a sign, a list, a repeated field, one of the three missing) is
/// `unread`, as is an answer this parser did not read: the reader then reads the fields themselves,
/// the slow twin whose answers `numbers` must agree with.
public enum RateLimitFields: Sendable, Equatable {
    /// Not read here: the fields were not plain, or the answer was made otherwise; read the fields.
    case unread
    /// None of the three fields came.
    case absent
    /// The three fields' values: the quota, what is left of it, and when it resets (Unix seconds).
    case numbers(limit: Int, remaining: Int, reset: Int)
}

/// The three fields noted as the parser meets them.
struct RateLimitReading {
    enum Field: UInt8 {
        case limit = 1, remaining = 2, reset = 4
    }

    private var limit = 0, remaining = 0, reset = 0
    /// The fields met so far (`Field` bits).
    private var seen: UInt8 = 0
    /// A field came twice or was not plain digits.
    private var unreadable = false

    /// The field of this name among the three (any case), or nil.
    /// `same` compares a name with a lowercase one (an HTTP/2 head, whose names are lowercase, compares them exactly).
    @inline(__always)
    static func field(named name: UnsafeRawBufferPointer, same: (UnsafeRawBufferPointer, StaticString) -> Bool = HTTPSyntax.sameToken) -> Field? {
        switch name.count {
        case 17 where same(name, "x-ratelimit-limit"): .limit
        case 17 where same(name, "x-ratelimit-reset"): .reset
        case 21 where same(name, "x-ratelimit-remaining"): .remaining
        default: nil
        }
    }

    mutating func note(_ field: Field, value: UnsafeRawBufferPointer) {
        if seen & field.rawValue != 0 { unreadable = true }
        seen |= field.rawValue
        guard let number = HTTPSyntax.digits(value) else {
            unreadable = true
            return
        }
        switch field {
        case .limit: limit = number
        case .remaining: remaining = number
        case .reset: reset = number
        }
    }

    var fields: RateLimitFields {
        if seen == 0 { return .absent }
        guard !unreadable, seen == 7 else { return .unread }
        return .numbers(limit: limit, remaining: remaining, reset: reset)
    }
}
