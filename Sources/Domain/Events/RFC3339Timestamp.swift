// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceText
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A time as RFC 3339 with milliseconds in UTC (`2026-11-24T13:27:33.125Z`), the text
/// `Date.ISO8601FormatStyle(includingFractionalSeconds: true)` gives, written straight into
/// one string: pipeline events' timestamps and the JSON log lines' `time`. A `/users?limit=30`
/// request makes about a hundred events, and the format style builds the style, looks the time
/// zone up and makes component strings for each (the figure: Benchmarks/README.md).
package enum RFC3339Timestamp {
    package static func format(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        let seconds = time_t(interval.rounded(.down))
        return format(seconds: seconds, milliseconds: min(999, max(0, Int((interval - Double(seconds)) * 1000))))
    }

    /// Now, from the real-time clock.
    package static func now() -> String {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return format(seconds: spec.tv_sec, milliseconds: Int(spec.tv_nsec / 1_000_000))
    }

    package static func format(seconds: time_t, milliseconds: Int) -> String {
        var seconds = seconds
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(unsafeUninitializedCapacity: 24) { text in
            var index = 0
            func put(_ value: Int, digits: Int) {
                ASCIIDigits.writeDecimal(UInt(value), count: digits, to: text.baseAddress! + index)
                index += digits
            }
            func put(_ character: Unicode.Scalar) {
                text[index] = UInt8(ascii: character)
                index += 1
            }
            put(Int(parts.tm_year) + 1900, digits: 4)
            put("-")
            put(Int(parts.tm_mon) + 1, digits: 2)
            put("-")
            put(Int(parts.tm_mday), digits: 2)
            put("T")
            put(Int(parts.tm_hour), digits: 2)
            put(":")
            put(Int(parts.tm_min), digits: 2)
            put(":")
            put(Int(parts.tm_sec), digits: 2)
            put(".")
            put(milliseconds, digits: 3)
            put("Z")
            return index
        }
    }
}
