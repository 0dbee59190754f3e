// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NetCore
import Streams

/// The `URLParts` of the URLs requests were made for lately, found again by the URL's string.
///
/// An upstream client requests the same URLs request after request (a page's avatars, its API
/// path), and each `HTTPClientRequest` read its URL again: ~910 instructions an exchange (the
/// scan ~545, the host's `String` ~175; ~30 k a `/users?limit=30` request, callgrind). A lookup
/// here hashes the string eight bytes at a time, compares it with one slot's (the same storage at
/// once, an equal copy byte by byte) and copies the parts out.
///
/// Two ways set-associative (`TwoWayMemo`): a URL's set of two slots is its hash's top bits, and a
/// new URL takes the older of the two.
/// URLs that `URLParts` declines are not kept: they are scanned again, then Foundation answers.
// @unchecked: `memo` is only touched between `lock.lock()` and `lock.unlock()`.
// Package: `hash` is the one Domain's `ParsedURLs` finds its URLs by too (`TwoWayMemo.hash`).
package final class URLPartsMemo: @unchecked Sendable {
    /// The process's: a request reads its URL when it is made, before any client sees it.
    static let shared = URLPartsMemo(slotBits: 9)

    private let lock = SpinLock()
    /// Parts that belong to no URL (`URLParts(unscanned:)`) in the slots not taken yet: an
    /// `absoluteString` is never empty.
    @exclusivity(unchecked) private var memo: TwoWayMemo<URLParts.Shared>

    /// - Parameter slotBits: 2^slotBits slots, in sets of two (at least one set). 512 (4 kB of
    ///   references): direct-mapped, the 31 URLs of a `/users?limit=30` request took each other's
    ///   slots about four times a request in 128 (a scan each), about once in 512; a page of 100
    ///   avatars fits as well.
    init(slotBits: Int) {
        memo = TwoWayMemo(setBits: max(0, slotBits - 1), vacant: .unscanned)
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
        lock.lock()
        let set = string.withUTF8 { memo.set(of: UnsafeRawBufferPointer($0)) }
        if let shared = memo.first(inSet: set, { $0.parts.belong(to: string) ? $0 : nil }) {
            lock.unlock()
            return shared
        }
        lock.unlock()
        let parts = URLParts(absoluteString: string)
        guard parts.scanned else { return .unscanned }
        let shared = URLParts.Shared(parts)
        lock.lock()
        memo.keep(shared, inSet: set)
        lock.unlock()
        return shared
    }

    /// `TwoWayMemo.hash`, the memo's hash of a URL's bytes.
    package static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        TwoWayMemo<URLParts.Shared>.hash(bytes)
    }
}
