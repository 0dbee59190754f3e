// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
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
        let set = string.withUTF8 { Int(truncatingIfNeeded: URLPartsMemo.hash(UnsafeRawBufferPointer($0)) >> shift) }
        lock.lock()
        for slot in 2 * set..<2 * set + 2 where slots[slot].string == string {
            let url = slots[slot].url
            lock.unlock()
            return url
        }
        lock.unlock()
        guard let url = URL(string: string) else { return nil }
        lock.lock()
        let slot = 2 * set + Int(older[set])
        older[set] ^= 1
        slots[slot] = Slot(string: string, url: url)
        lock.unlock()
        return url
    }

    /// The strings kept now.
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return slots.count { $0.url != nil }
    }
}
