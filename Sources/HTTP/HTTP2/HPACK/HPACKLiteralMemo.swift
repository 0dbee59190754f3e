// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// The Huffman-coded literals of the previous header blocks, by where they stood in their block
/// (field ordinal, name or value), with what they decoded to: `HPACKDecoder.decodeBytes` copies a
/// literal coded with the same bytes at the same place instead of decoding it again. An upstream's
/// answers repeat literals it does not index: `date` (the same for a second) and an unindexed
/// name such as `x-request-id`, about 30 of a block's 60 coded bytes, at about 20 instructions a
/// coded byte (Benchmarks/README.md). Decoding is a function of the coded bytes, so a copy is
/// what decoding them again would write; only literals that decoded are kept. Decoding every
/// literal (`HPACKDecoder.decode`, the slow twin) gives the same fields: HPACKDecoderBytesTests,
/// and the HPACK fuzz target, which decodes its blocks twice over.
///
/// Fixed memory per decoder (`slotCount` slots of `slotSize` bytes), whatever the peer sends.
// @unchecked: owned by one decoder, which its connection's loop alone uses (as the decoder's table).
final class HPACKLiteralMemo: @unchecked Sendable {
    /// Literals of the first 16 fields of a block, their names and values.
    static let slotCount = 32
    /// The longest coded literal kept, and its room decoded (`HPACKHuffman.decodedCapacity`).
    static let maxCoded = 64
    private static let maxDecoded = 104
    /// Per slot: the coded count (0: empty), the decoded count, the notes, a name's verdict, the
    /// misses in a row, the coded bytes, the decoded bytes.
    private static let header = 5
    private static let slotSize = header + maxCoded + maxDecoded
    /// The slots, for the decoder to reach them without retaining this object per literal (its
    /// `Optional` copied and released cost about 200 instructions a literal: more than the memo saved).
    let slots: UnsafeMutableRawPointer

    /// A name's verdict kept with its literal: not yet known, or whether `HTTP2FieldRules.nameFault` passes it.
    enum NameVerdict: UInt8 { case unknown = 0, valid = 1, invalid = 2 }

    init() {
        slots = UnsafeMutableRawPointer.allocate(byteCount: Self.slotCount * Self.slotSize, alignment: 8)
        slots.initializeMemory(as: UInt8.self, repeating: 0, count: Self.slotCount * Self.slotSize)
    }

    deinit { slots.deallocate() }

    /// The slot for field `ordinal`'s name or value; nil past the slots.
    @inline(__always)
    static func slot(ordinal: Int, value: Bool) -> Int? {
        let slot = ordinal &* 2 &+ (value ? 1 : 0)
        return slot < slotCount ? slot : nil
    }

    /// What `coded` decoded to when it stood in `slot` last, copied to `out`: its count, notes and
    /// (for a name) verdict; nil when the slot held other bytes.
    @inline(__always)
    static func copy(_ slots: UnsafeMutableRawPointer, _ slot: Int, coded: UnsafeBufferPointer<UInt8>, to out: UnsafeMutablePointer<UInt8>)
        -> (count: Int, notes: HPACKHuffman.Notes, verdict: NameVerdict)? {
        let base = slots + slot &* slotSize
        guard coded.count == Int(base.load(as: UInt8.self)), coded.count > 0,
              same(UnsafeRawPointer(base + header), UnsafeRawPointer(coded.baseAddress!), count: coded.count) else { return nil }
        base.storeBytes(of: 0, toByteOffset: 4, as: UInt8.self)
        let count = Int(base.load(fromByteOffset: 1, as: UInt8.self))
        let flags = base.load(fromByteOffset: 2, as: UInt8.self)
        out.update(from: (base + header + maxCoded).assumingMemoryBound(to: UInt8.self), count: count)
        return (count, HPACKHuffman.Notes(forbidden: flags & 1 != 0, high: flags & 2 != 0),
                NameVerdict(rawValue: base.load(fromByteOffset: 3, as: UInt8.self)) ?? .unknown)
    }

    /// Whether `count` bytes at `a` and `b` are the same, eight at a time, the last eight (which
    /// may overlap the word before) as one: their tail byte by byte cost about 5 instructions a
    /// byte, some 370 bytes and 2,000 instructions a `/users` request (Benchmarks/README.md).
    /// Shorter ones byte by byte.
    @inline(__always)
    private static func same(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
        guard count >= 8 else {
            var index = 0
            while index < count {
                if a.load(fromByteOffset: index, as: UInt8.self) != b.load(fromByteOffset: index, as: UInt8.self) { return false }
                index &+= 1
            }
            return true
        }
        var index = 0
        while index &+ 8 < count {
            if a.loadUnaligned(fromByteOffset: index, as: UInt64.self) != b.loadUnaligned(fromByteOffset: index, as: UInt64.self) { return false }
            index &+= 8
        }
        let last = count &- 8
        return a.loadUnaligned(fromByteOffset: last, as: UInt64.self) == b.loadUnaligned(fromByteOffset: last, as: UInt64.self)
    }

    /// A slot that missed this many times in a row keeps what it holds, and takes a new literal
    /// only every `retryEvery`-th miss: a field whose value changes with every answer (`etag`,
    /// `x-request-id`'s) missed each time, and each keeping copied its bytes twice for nothing,
    /// about 75 instructions (some 60 such literals a `/users` request: Benchmarks/README.md).
    /// A literal that stays the same is kept at its first or second miss, so what hits still hits.
    static let restingAfter: UInt8 = 2
    static let retryEvery: UInt8 = 8

    /// Keeps `coded` and what it decoded to in `slot` (not when either is longer than a slot holds,
    /// nor while the slot rests after misses in a row); whether it kept them, so that a name's
    /// verdict is noted only with its own literal.
    @inline(__always)
    @discardableResult
    static func store(_ slots: UnsafeMutableRawPointer, _ slot: Int, coded: UnsafeBufferPointer<UInt8>, decoded: UnsafeBufferPointer<UInt8>, notes: HPACKHuffman.Notes) -> Bool {
        let base = slots + slot &* slotSize
        let misses = base.load(fromByteOffset: 4, as: UInt8.self) &+ 1
        base.storeBytes(of: misses, toByteOffset: 4, as: UInt8.self)
        if misses > restingAfter && misses % retryEvery != 0 { return false }
        guard let codedBase = coded.baseAddress, coded.count <= maxCoded, decoded.count <= maxDecoded else {
            base.storeBytes(of: 0, as: UInt8.self)
            return false
        }
        base.storeBytes(of: UInt8(coded.count), as: UInt8.self)
        base.storeBytes(of: UInt8(decoded.count), toByteOffset: 1, as: UInt8.self)
        base.storeBytes(of: (notes.forbidden ? 1 : 0) | (notes.high ? 2 : 0), toByteOffset: 2, as: UInt8.self)
        base.storeBytes(of: NameVerdict.unknown.rawValue, toByteOffset: 3, as: UInt8.self)
        (base + header).copyMemory(from: codedBase, byteCount: coded.count)
        if let decodedBase = decoded.baseAddress {
            (base + header + maxCoded).copyMemory(from: decodedBase, byteCount: decoded.count)
        }
        return true
    }

    /// Notes a name's verdict with the literal `slot` holds.
    @inline(__always)
    static func noteVerdict(_ slots: UnsafeMutableRawPointer, _ slot: Int, valid: Bool) {
        (slots + slot &* slotSize).storeBytes(of: (valid ? NameVerdict.valid : .invalid).rawValue, toByteOffset: 3, as: UInt8.self)
    }
}
