// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// The slots of a memo kept two ways set-associative, for what is parsed from strings that come
/// again request after request: HTTP's `URLPartsMemo` (the parts of a request's URL) and Domain's
/// `ParsedURLs` (a page's avatar URLs). A key's set of two slots is its bytes' `hash`'s top bits,
/// and a new entry takes the older of its set's two slots. Direct-mapped, two of a page's 31 URLs
/// shared a slot now and then and took it from each other on every request, by the upstream's
/// port alone.
///
/// Not thread-safe: its owner keeps it under its own lock (a `SpinLock`, which is Streams' and
/// out of NetCore's sight) and does the parsing outside it. The entry says which key it is for
/// (`first(inSet:_:)` asks it), so a slot no key has taken yet holds an entry no key matches
/// (`vacant`).
///
/// Generic over the entry with its members `@inlinable` and the type `@usableFromInline`, so each
/// owner's use is specialised and inlined in its own module. `@inlinable` members of a `package`
/// type without `@usableFromInline` stayed unspecialised calls from HTTP and Domain (their bodies
/// are not offered to other modules): metadata lookups of ~2,500 instructions a lookup, as
/// NetCore's earlier generic memo cost (`DigestMemo`).
@usableFromInline
package struct TwoWayMemo<Entry> {
    /// Set `s` is entries `2s` and `2s + 1`.
    @usableFromInline var entries: [Entry]
    /// Per set, the entry a new one replaces next (the one kept earlier).
    @usableFromInline var older: [UInt8]
    /// 64 - log2(sets): a set is the hash's top bits, the best mixed by its multiplications.
    @usableFromInline let shift: UInt64

    /// 2^setBits sets of two entries (`setBits` 0: one set), each `vacant` until a key takes it.
    @inlinable
    package init(setBits: Int, vacant: Entry) {
        shift = UInt64(64 - setBits)
        entries = Array(repeating: vacant, count: 2 << setBits)
        older = Array(repeating: 0, count: 1 << setBits)
    }

    /// The entries kept at most.
    @inlinable
    package var capacity: Int { entries.count }

    /// The set of the key whose bytes these are.
    @inlinable
    package func set(of key: UnsafeRawBufferPointer) -> Int {
        // A shift of 64 (one set) leaves 0.
        Int(truncatingIfNeeded: Self.hash(key) >> shift)
    }

    /// What `found` answers for the first entry of `set` it answers for (nil: the entry is not
    /// the key's), in the order of the set's two slots; nil when it answers for neither.
    @inlinable
    package func first<Found>(inSet set: Int, _ found: (Entry) -> Found?) -> Found? {
        for slot in 2 * set..<2 * set + 2 {
            if let answer = found(entries[slot]) { return answer }
        }
        return nil
    }

    /// Keeps `entry` in `set`, in place of the older of its two.
    @inlinable
    package mutating func keep(_ entry: Entry, inSet set: Int) {
        entries[2 * set + Int(older[set])] = entry
        older[set] ^= 1
    }

    /// How many entries `isKey` finds a key's (the others are `vacant`).
    package func count(where isKey: (Entry) -> Bool) -> Int {
        entries.count(where: isKey)
    }

    /// A multiplicative hash of `bytes` taken eight at a time: byte by byte (FNV-1a), a 30-byte
    /// avatar URL cost ~265 instructions, a third of the scan `URLPartsMemo` saves (callgrind).
    @inlinable
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
