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

extension HTTPDate {
    private static let longDays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    /// An HTTP-date in any of the three forms a recipient accepts (RFC 9110 §5.6.7), as seconds
    /// since 1970 (UTC); nil for anything else. A peer writes the text, so every part is range
    /// checked (a 31st of February is no date) and nothing in it can trap.
    ///
    ///     IMF-fixdate:  Sun, 06 Nov 1994 08:49:37 GMT
    ///     RFC 850:      Sunday, 06-Nov-94 08:49:37 GMT
    ///     asctime:      Sun Nov  6 08:49:37 1994
    static func secondsSince1970(_ text: String) -> Int64? {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "-" || $0 == ":" })
        let day: Substring, month: Substring, year: Substring, time: ArraySlice<Substring>
        switch parts.count {
        case 8 where parts[7] == "GMT" && (days.contains(String(parts[0])) || longDays.contains(String(parts[0]))):
            (day, month, year, time) = (parts[1], parts[2], parts[3], parts[4...6])
        case 7 where days.contains(String(parts[0])):
            (month, day, year, time) = (parts[1], parts[2], parts[6], parts[3...5])
        default:
            return nil
        }
        guard let monthIndex = months.firstIndex(where: { $0 == month }),
              let dayNumber = number(day, digits: 1...2), let yearNumber = number(year, digits: 2...4), year.count != 3,
              let hour = number(time[time.startIndex], digits: 2...2), let minute = number(time[time.startIndex + 1], digits: 2...2),
              let second = number(time[time.startIndex + 2], digits: 2...2),
              hour < 24, minute < 60, second <= 60
        else { return nil }
        // RFC 850's two-digit year: the century that puts it nearest to now (RFC 9110 §5.6.7).
        let fullYear = year.count == 2 ? (yearNumber < 70 ? 2000 + yearNumber : 1900 + yearNumber) : yearNumber
        let month1 = monthIndex + 1
        guard dayNumber >= 1, dayNumber <= daysIn(month: month1, of: fullYear) else { return nil }
        return Int64(daysSince1970(year: fullYear, month: month1, day: dayNumber)) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    /// A run of `digits` ASCII digits as a number; nil for anything else.
    private static func number(_ text: Substring, digits: ClosedRange<Int>) -> Int? {
        guard digits.contains(text.utf8.count), text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return Int(text)
    }

    private static func daysIn(month: Int, of year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the date in the proleptic Gregorian calendar (Howard Hinnant's
    /// `days_from_civil`); the years here are positive.
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
