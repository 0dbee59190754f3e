// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The digests (`MessageDigest.hex`) of the byte strings given lately, one per key, each kept with
/// its bytes: a digest is given again only for bytes equal to the kept ones (compared in full by
/// `memcmp`, never assumed from the key), else worked out and kept in their place. For bodies that
/// come again unchanged request after request: a page's avatars (by user), an answer's `ETag` (by
/// target). `MessageDigest.hex` is the slow twin (DigestMemoTests). Past `capacity` keys or
/// `maximumBytes` of kept bytes the memo starts over; larger bytes are never kept.
///
/// Keyed by `Int` (a user's id, a target's `hashValue`: two keys alike only cost a digest, the
/// bytes decide), not generic over the key: NetCore's generic memo was not specialised where it
/// was used, and its type metadata lookups and unspecialised `Dictionary` cost ~1,600
/// instructions a lookup, most of what it saved.
///
/// The figures, a `/users` request: SHA-256 of 30 avatars of 164 bytes cost ~7,400 instructions
/// each under callgrind (which hides SHA-NI from OpenSSL) and 184 ns of CPU each with SHA-NI; of
/// its 26 kB answer for the `ETag`, ~197,000 instructions and 17 µs. A 164-byte `memcmp` is ~0.3 ns.
package final class DigestMemo: Sendable {
    private struct Kept {
        let bytes: [UInt8]
        let hex: String
    }

    private struct State {
        var kept: [Int: Kept] = [:]
        /// The kept bytes in all.
        var bytes = 0
    }

    private let state = Mutex(State())
    package let digest: MessageDigest
    package let capacity: Int
    package let maximumBytes: Int

    package init(_ digest: MessageDigest, capacity: Int, maximumBytes: Int) {
        self.digest = digest
        self.capacity = capacity
        self.maximumBytes = maximumBytes
    }

    /// `digest.hex(bytes)`, kept from the last bytes given under `key` when they are equal.
    package func hex(of bytes: [UInt8], key: Int) -> String {
        if let kept = state.withLock({ $0.kept[key] }), Self.same(kept.bytes, bytes) { return kept.hex }
        let hex = digest.hex(bytes)
        guard bytes.count <= maximumBytes else { return hex }
        state.withLock { state in
            if state.kept.count >= capacity || state.bytes + bytes.count > maximumBytes {
                state.kept.removeAll(keepingCapacity: true)
                state.bytes = 0
            }
            if let replaced = state.kept.updateValue(Kept(bytes: bytes, hex: hex), forKey: key) { state.bytes -= replaced.bytes.count }
            state.bytes += bytes.count
        }
        return hex
    }

    /// The keys kept now (tests).
    package var count: Int { state.withLock { $0.kept.count } }

    /// Byte for byte, by `memcmp`: `Array`'s `==` compares a byte a step.
    private static func same(_ kept: [UInt8], _ bytes: [UInt8]) -> Bool {
        kept.count == bytes.count && kept.withUnsafeBytes { kept in
            bytes.withUnsafeBytes { bytes in bytes.isEmpty || memcmp(kept.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }
        }
    }
}
