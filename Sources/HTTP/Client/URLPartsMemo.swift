// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Streams

/// The `URLParts` of the URLs requests were made for lately, found again by the URL's string.
///
/// An upstream client requests the same URLs request after request (a page's avatars, its API
/// path), and each `HTTPClientRequest` read its URL again: ~910 instructions an exchange (the
/// scan ~545, the host's `String` ~175; ~30 k a `/users?limit=30` request, callgrind). A lookup
/// here hashes the string eight bytes at a time, compares it with one slot's (the same storage at
/// once, an equal copy byte by byte) and copies the parts out.
///
/// Two ways set-associative: a URL's set of two slots is its hash's top bits, and a new URL takes
/// the older of the two. Direct-mapped, two of a page's 31 URLs shared a slot now and then, and
/// took it from each other on every request (two scans a request), by the upstream's port alone.
/// URLs that `URLParts` declines are not kept: they are scanned again, then Foundation answers.
// @unchecked: `slots` and `older` are only touched between `lock.lock()` and `lock.unlock()`.
// Package: Domain's `ParsedURLs` finds its URLs by the same `hash`.
package final class URLPartsMemo: @unchecked Sendable {
    /// The process's: a request reads its URL when it is made, before any client sees it.
    static let shared = URLPartsMemo(slotBits: 9)

    private let lock = SpinLock()
    /// Parts that belong to no URL (`URLParts(unscanned:)`) in the slots not taken yet.
    /// Set `s` is slots `2s` and `2s + 1`.
    @exclusivity(unchecked) private var slots: [URLParts.Shared]
    /// Per set, the slot a new URL takes next (the one filled earlier).
    @exclusivity(unchecked) private var older: [UInt8]
    /// 64 - log2(sets): a set is the hash's top bits, the best mixed by its multiplications.
    private let shift: UInt64

    /// - Parameter slotBits: 2^slotBits slots, in sets of two (at least one set). 512 (4 kB of
    ///   references): direct-mapped, the 31 URLs of a `/users?limit=30` request took each other's
    ///   slots about four times a request in 128 (a scan each), about once in 512; a page of 100
    ///   avatars fits as well.
    init(slotBits: Int) {
        let setBits = max(0, slotBits - 1)
        shift = UInt64(64 - setBits)
        slots = Array(repeating: .unscanned, count: 2 << setBits)
        older = Array(repeating: 0, count: 1 << setBits)
    }

    /// `URLParts(reading: url)`, kept from an earlier request for the same URL string (tests;
    /// a request holds them shared: `shared(reading:)`).
    func parts(reading url: URL) -> URLParts {
        shared(reading: url).parts
    }

    /// `parts(reading:)` held by one reference, the slot's own: one retain where a copy of the
    /// parts retained their two strings.
    func shared(reading url: URL) -> URLParts.Shared {
        var string = url.absoluteString
        // A shift of 64 (one set) leaves 0.
        let set = string.withUTF8 { Int(truncatingIfNeeded: Self.hash(UnsafeRawBufferPointer($0)) >> shift) }
        lock.lock()
        // A free slot's empty string belongs to no URL: an `absoluteString` is never empty.
        for slot in 2 * set..<2 * set + 2 where slots[slot].parts.belong(to: string) {
            let shared = slots[slot]
            lock.unlock()
            return shared
        }
        lock.unlock()
        let parts = URLParts(absoluteString: string)
        guard parts.scanned else { return .unscanned }
        let shared = URLParts.Shared(parts)
        lock.lock()
        slots[2 * set + Int(older[set])] = shared
        older[set] ^= 1
        lock.unlock()
        return shared
    }

    /// A multiplicative hash of `bytes` taken eight at a time: byte by byte (FNV-1a), a 30-byte
    /// avatar URL cost ~265 instructions, a third of the scan it saves (callgrind).
    package static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
        var code = UInt64(truncatingIfNeeded: bytes.count) &* multiplier
        var offset = 0
        while offset + 8 <= bytes.count {
            let mixed = code ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            // The top bits, mixed by the multiplication, brought down into the next word's.
            code = (mixed << 29 | mixed >> 35) &* multiplier
            offset += 8
        }
        var tail: UInt64 = 0
        while offset < bytes.count {
            tail = tail << 8 | UInt64(bytes[offset])
            offset += 1
        }
        return (code ^ tail) &* multiplier
    }
}
