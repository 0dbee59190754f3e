// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

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
import HTTP
import NetCore
import Streams

/// `URL(string:)` of the strings parsed lately, kept: a page of users names the same avatar
/// URLs request after request, and Foundation's parse (RFC 3986, about 3,700 instructions an
/// avatar, 30 a `/users` page) cost several times a lookup here (the figure:
/// Benchmarks/README.md).
///
/// Two ways set-associative (`TwoWayMemo`), as `URLPartsMemo` keeps URL parts: a string's set is
/// its hash's top bits (eight bytes at a time), and a new string takes the older of its set's two
/// slots. A `[String: URL]` hashed each string with `Hasher` (SipHash, byte by byte) and cost
/// ~680 instructions a lookup, ~20 k a `/users?limit=30` request (callgrind).
// @unchecked: `memo` is only touched between `lock.lock()` and `lock.unlock()`.
final class ParsedURLs: @unchecked Sendable {
    private struct Slot {
        var string = ""
        var url: URL?
    }

    private let lock = SpinLock()
    /// A free slot's empty string belongs to no lookup (an empty string is never a URL).
    @exclusivity(unchecked) private var memo: TwoWayMemo<Slot>
    /// Strings kept at most: `capacity` rounded up to a power of two, at least 2.
    let capacity: Int

    init(capacity: Int) {
        var sets = 1
        while sets * 2 < capacity { sets *= 2 }
        memo = TwoWayMemo(setBits: sets.trailingZeroBitCount, vacant: Slot())
        self.capacity = memo.capacity
    }

    /// What `URL(string: string)` answers; a string it refuses is not kept.
    func url(_ string: String) -> URL? {
        var string = string
        let (set, kept) = string.withUTF8 { bytes -> (Int, URL?) in
            lock.lock()
            defer { lock.unlock() }
            let set = memo.set(of: UnsafeRawBufferPointer(bytes))
            // A free slot's URL is nil, as `URL(string: "")` is.
            return (set, memo.first(inSet: set) { Self.same($0.string, bytes) ? $0.url : nil })
        }
        if let kept { return kept }
        guard let url = URL(string: string) else { return nil }
        lock.lock()
        memo.keep(Slot(string: string, url: url), inSet: set)
        lock.unlock()
        return url
    }

    /// Whether `stored` is these bytes: compared with `memcmp`, where `==` between a page's new
    /// string and the kept one (two storages) went through the standard library's comparison,
    /// ~120 instructions a lookup (callgrind).
    private static func same(_ stored: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard stored.utf8.count == bytes.count else { return false }
        guard let base = bytes.baseAddress else { return true }
        return stored.utf8.withContiguousStorageIfAvailable { memcmp($0.baseAddress!, base, bytes.count) == 0 } ?? stored.utf8.elementsEqual(bytes)
    }

    /// The strings kept now.
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return memo.count { $0.url != nil }
    }
}
