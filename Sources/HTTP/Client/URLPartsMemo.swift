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
/// here hashes the string's bytes (FNV-1a, a few instructions a byte), compares it with one
/// slot's (the same storage at once, an equal copy byte by byte) and copies the parts out.
///
/// Direct-mapped: a URL's slot is its hash's low bits, and a new URL takes the slot from the one
/// there. URLs that `URLParts` declines are not kept: they are scanned again, then Foundation answers.
// @unchecked: `slots` is only touched between `lock.lock()` and `lock.unlock()`.
final class URLPartsMemo: @unchecked Sendable {
    /// The process's: a request reads its URL when it is made, before any client sees it.
    static let shared = URLPartsMemo(slotBits: 7)

    private let lock = SpinLock()
    /// Parts that belong to no URL (`URLParts(unscanned:)`) in the slots not taken yet.
    @exclusivity(unchecked) private var slots: [URLParts]
    private let mask: Int

    /// - Parameter slotBits: 2^slotBits slots (128 by default: a page of 100 avatars and its API paths).
    init(slotBits: Int) {
        mask = (1 << slotBits) - 1
        slots = Array(repeating: URLParts(unscanned: ()), count: 1 << slotBits)
    }

    /// `URLParts(reading: url)`, kept from an earlier request for the same URL string.
    func parts(reading url: URL) -> URLParts {
        var string = url.absoluteString
        let slot = string.withUTF8 { bytes in
            var code: UInt64 = 0xCBF2_9CE4_8422_2325
            for byte in bytes { code = (code ^ UInt64(byte)) &* 0x100_0000_01B3 }
            return Int(truncatingIfNeeded: code ^ (code >> 29)) & mask
        }
        lock.lock()
        // A free slot's empty string belongs to no URL: an `absoluteString` is never empty.
        if slots[slot].belong(to: string) {
            let parts = slots[slot]
            lock.unlock()
            return parts
        }
        lock.unlock()
        let parts = URLParts(absoluteString: string)
        guard parts.scanned else { return parts }
        lock.lock()
        slots[slot] = parts
        lock.unlock()
        return parts
    }
}
