// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// The field representations of the previous header blocks, whole, by their field's place in its
/// block, with what they decoded to: `HPACKDecoder.decodeBytes` copies a field coded with the same
/// bytes at the same place instead of decoding it again. An upstream's answers repeat most of
/// their fields byte for byte (`:status`, `date` within a second, `server`, `content-type` and
/// `cache-control` as dynamic-table indexes): five of a demo avatar answer's eight fields, each
/// decoded at about 100 to 200 instructions (an integer, a table copy or a literal through
/// `HPACKLiteralMemo`, the checks, the list size), where the copy costs a comparison of a few
/// bytes (the figure: Benchmarks/README.md).
///
/// Sound because a representation's decoding is a function of its bytes and, for one that names
/// the dynamic table, of the table: only representations that do not change the table are kept
/// (indexed fields and literals without indexing; never-indexed literals are not kept), and one that
/// names the table is kept with the decoder's table stamp, which changes with every change of
/// the table (`nextStamp`, one counter for the memo, so copies of a decoder that share it never
/// reuse a stamp). HPACK representations end by themselves, so a block whose next bytes are a
/// kept representation holds that representation there. Decoding every field (a decoder without
/// the memo, and `HPACKDecoder.decode`, the slow twin) gives the same fields: HPACKDecoderBytesTests.
///
/// Fixed memory per decoder (`slotCount` slots of `slotSize` bytes), whatever the peer sends.
// @unchecked: owned by one decoder, which its connection's loop alone uses (as the decoder's table).
final class HPACKRepresentationMemo: @unchecked Sendable {
    /// The first 16 fields of a block.
    static let slotCount = 16
    /// The longest representation kept, and the most bytes it may decode to.
    static let maxCoded = 64
    private static let maxDecoded = 168
    /// Per slot: the coded count (0: empty), flags (checked, names the table), misses in a row, a
    /// spare byte, the decoded count, the name's count (`UInt16`s), the list size counted, the
    /// table stamp (`UInt64`s), the coded bytes, the decoded bytes.
    private static let header = 24
    private static let slotSize = header + maxCoded + maxDecoded
    /// The stamp counter, then the slots.
    private static let slotsStart = 8
    /// The memory, for the decoder to reach without retaining this object per field.
    let slots: UnsafeMutableRawPointer

    init() {
        let byteCount = Self.slotsStart + Self.slotCount * Self.slotSize
        slots = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 8)
        slots.initializeMemory(as: UInt8.self, repeating: 0, count: byteCount)
    }

    deinit { slots.deallocate() }

    /// A stamp no table that shared this memo had before: the decoder's table after a change.
    @inline(__always)
    static func nextStamp(_ slots: UnsafeMutableRawPointer) -> UInt64 {
        let stamp = slots.load(as: UInt64.self) &+ 1
        slots.storeBytes(of: stamp, as: UInt64.self)
        return stamp
    }

    /// What a kept representation decoded to.
    struct Hit {
        let codedCount: Int
        let decodedCount: Int
        let nameCount: Int
        let checked: Bool
        let listed: Int
    }

    @inline(__always)
    private static func slot(_ slots: UnsafeMutableRawPointer, _ ordinal: Int) -> UnsafeMutableRawPointer? {
        ordinal < slotCount ? slots + (slotsStart &+ ordinal &* slotSize) : nil
    }

    /// What the representation kept for field `ordinal` decoded to, copied to `out`, when `block`
    /// holds it at `position` (and, for one naming the table, the table is the one it was decoded
    /// with, `stamp`); nil otherwise.
    @inline(__always)
    static func copy(_ slots: UnsafeMutableRawPointer, ordinal: Int, block: UnsafeBufferPointer<UInt8>, at position: Int, stamp: UInt64,
                     to out: UnsafeMutablePointer<UInt8>) -> Hit? {
        guard let base = slot(slots, ordinal) else { return nil }
        let codedCount = Int(base.load(as: UInt8.self))
        guard codedCount > 0, codedCount <= block.count &- position else { return nil }
        let flags = base.load(fromByteOffset: 1, as: UInt8.self)
        guard flags & 2 == 0 || base.load(fromByteOffset: 16, as: UInt64.self) == stamp,
              HPACKLiteralMemo.same(UnsafeRawPointer(base + header), UnsafeRawPointer(block.baseAddress! + position), count: codedCount) else { return nil }
        base.storeBytes(of: 0, toByteOffset: 2, as: UInt8.self)
        let decodedCount = Int(base.load(fromByteOffset: 4, as: UInt16.self))
        out.update(from: (base + header + maxCoded).assumingMemoryBound(to: UInt8.self), count: decodedCount)
        return Hit(codedCount: codedCount, decodedCount: decodedCount, nameCount: Int(base.load(fromByteOffset: 6, as: UInt16.self)),
                   checked: flags & 1 != 0, listed: base.load(fromByteOffset: 8, as: Int.self))
    }

    /// A slot that missed this many times in a row keeps what it holds, and takes a new
    /// representation only every `retryEvery`-th miss, as `HPACKLiteralMemo`'s slots do: a field
    /// whose value changes with every answer (`content-length`, `etag`) would otherwise be copied
    /// in for nothing each time.
    static let restingAfter: UInt8 = 2
    static let retryEvery: UInt8 = 8

    /// Keeps field `ordinal`'s representation `coded` and what it decoded to (`decoded`, its name
    /// the first `nameCount` bytes), unless either is longer than a slot holds or the slot rests.
    @inline(__always)
    static func store(_ slots: UnsafeMutableRawPointer, ordinal: Int, coded: UnsafeBufferPointer<UInt8>, decoded: UnsafeBufferPointer<UInt8>,
                      nameCount: Int, checked: Bool, listed: Int, namesTable: Bool, stamp: UInt64) {
        guard let base = slot(slots, ordinal) else { return }
        let misses = base.load(fromByteOffset: 2, as: UInt8.self) &+ 1
        base.storeBytes(of: misses, toByteOffset: 2, as: UInt8.self)
        if misses > restingAfter && misses % retryEvery != 0 { return }
        guard let codedBase = coded.baseAddress, coded.count <= maxCoded, decoded.count <= maxDecoded else {
            base.storeBytes(of: 0, as: UInt8.self)
            return
        }
        base.storeBytes(of: UInt8(coded.count), as: UInt8.self)
        base.storeBytes(of: (checked ? 1 : 0) | (namesTable ? 2 : 0), toByteOffset: 1, as: UInt8.self)
        base.storeBytes(of: UInt16(decoded.count), toByteOffset: 4, as: UInt16.self)
        base.storeBytes(of: UInt16(nameCount), toByteOffset: 6, as: UInt16.self)
        base.storeBytes(of: listed, toByteOffset: 8, as: Int.self)
        base.storeBytes(of: stamp, toByteOffset: 16, as: UInt64.self)
        (base + header).copyMemory(from: codedBase, byteCount: coded.count)
        if let decodedBase = decoded.baseAddress {
            (base + header + maxCoded).copyMemory(from: decodedBase, byteCount: decoded.count)
        }
    }
}
