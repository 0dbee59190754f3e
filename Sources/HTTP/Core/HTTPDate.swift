// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import NetCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The IMF-fixdate for the `Date` header, formatted at most once per second
/// for the whole process.
enum HTTPDate {
    private static let cache = Locked<(second: Int, bytes: [UInt8])>((-1, []))
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// e.g. `Sun, 06 Nov 1994 08:49:37 GMT`
    static var current: [UInt8] {
        let now = time(nil)
        return cache.withLock { cached in
            if cached.second != now {
                cached = (now, Array(format(now).utf8))
            }
            return cached.bytes
        }
    }

    static func format(_ seconds: time_t) -> String {
        var value = seconds
        var parts = tm()
        gmtime_r(&value, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    /// One event loop's copy of `current`, refreshed from it once a second: the shared copy
    /// sits behind a lock that every loop would otherwise take for every response.
    // @unchecked: confined to its loop's thread.
    final class LoopCache: @unchecked Sendable {
        private var second: time_t = -1
        private var bytes: [UInt8] = []

        var current: [UInt8] {
            let now = time(nil)
            if now != second {
                second = now
                bytes = HTTPDate.current
            }
            return bytes
        }
    }
}
