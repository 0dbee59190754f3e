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
import Streams

/// `URL(string:)` of the strings parsed lately, kept: a page of users names the same avatar
/// URLs request after request, and Foundation's parse (RFC 3986, about 3,700 instructions an
/// avatar, 30 a `/users` page) cost several times a lookup here (the figure:
/// Benchmarks/README.md).
///
/// Two ways set-associative, as `URLPartsMemo` keeps URL parts: a string's set is its hash's top
/// bits (`URLPartsMemo.hash`, eight bytes at a time), and a new string takes the older of its set's
/// two slots. A `[String: URL]` hashed each string with `Hasher` (SipHash, byte by byte) and cost
/// ~680 instructions a lookup, ~20 k a `/users?limit=30` request (callgrind).
// @unchecked: `slots` and `older` are only touched between `lock.lock()` and `lock.unlock()`.
final class ParsedURLs: @unchecked Sendable {
    private struct Slot {
        var string = ""
        var url: URL?
    }

    private let lock = SpinLock()
    /// Set `s` is slots `2s` and `2s + 1`; a free slot's empty string belongs to no lookup (an
    /// empty string is never a URL).
    @exclusivity(unchecked) private var slots: [Slot]
    /// Per set, the slot a new string takes next (the one filled earlier).
    @exclusivity(unchecked) private var older: [UInt8]
    /// 64 - log2(sets): a set is the hash's top bits, the best mixed by its multiplications.
    private let shift: UInt64
    /// Strings kept at most: `capacity` rounded up to a power of two, at least 2.
    let capacity: Int

    init(capacity: Int) {
        var sets = 1
        while sets * 2 < capacity { sets *= 2 }
        self.capacity = sets * 2
        shift = UInt64(64 - sets.trailingZeroBitCount)
        slots = Array(repeating: Slot(), count: sets * 2)
        older = Array(repeating: 0, count: sets)
    }

    /// What `URL(string: string)` answers; a string it refuses is not kept.
    func url(_ string: String) -> URL? {
        var string = string
        let (set, kept) = string.withUTF8 { bytes -> (Int, URL?) in
            let set = Int(truncatingIfNeeded: URLPartsMemo.hash(UnsafeRawBufferPointer(bytes)) >> shift)
            lock.lock()
            defer { lock.unlock() }
            // A free slot's URL is nil, as `URL(string: "")` is.
            for slot in 2 * set..<2 * set + 2 where Self.same(slots[slot].string, bytes) { return (set, slots[slot].url) }
            return (set, nil)
        }
        if let kept { return kept }
        guard let url = URL(string: string) else { return nil }
        lock.lock()
        let slot = 2 * set + Int(older[set])
        older[set] ^= 1
        slots[slot] = Slot(string: string, url: url)
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
        return slots.count { $0.url != nil }
    }
}
