// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// A decoded header block as bytes (`HPACKDecoder.decodeBytes`): its names and values one after
/// another in one array, and where each lies, in the layout `ReceivedFields` reads, so that a
/// response's block becomes its answer's fields as an HTTP/1.1 head's lines do, without a `String`
/// per name and value, nor the list of them (whose generic destruction, a `tuple_destroy` per
/// field, alone cost the HTTP/2 client about 340 k instructions a `/users` request: Benchmarks/README.md).
///
/// Layout of `storage`: the bytes, then per field four `UInt32`s (name start and end, value start
/// and end, offsets into the bytes), then the offset where those start and the field count, as
/// `UInt32`s, all little-endian.
package struct HPACKFieldBytes: Sendable {
    package var storage: [UInt8]
    /// As `HPACKDecoder.Block.checkedFields`.
    package var checkedFields: UInt64
    /// As `HPACKDecoder.Block.overListSize`: the list was larger than allowed, and no field is kept.
    package var overListSize: Bool

    static let spanBytes = 16

    /// These fields, none marked checked (tests, and `ReceivedFields(listing:)`).
    package init(listing fields: some Sequence<(name: String, value: String)>) {
        var bytes: [UInt8] = []
        var spans: [UInt32] = []
        for (name, value) in fields {
            spans.append(UInt32(bytes.count))
            bytes += name.utf8
            spans += [UInt32(bytes.count), UInt32(bytes.count)]
            bytes += value.utf8
            spans.append(UInt32(bytes.count))
        }
        self.init(storage: Self.storage(bytes: bytes, spans: spans), checkedFields: 0, overListSize: false)
    }

    /// `storage(bytes:spans:)` (its slow twin: HPACKFieldBytesTests) for bytes that lie at the start
    /// of `room`, which the spans and the trailer are written after, where they lie: the layout is
    /// then one copy into the array, which allocates it: about 310 instructions a block, where
    /// reserving room and appending the three parts cost about 580 (the figure: Benchmarks/README.md).
    /// `room` must hold `byteCount + spans.count * 4 + 8` bytes (`layoutSize`).
    static func storage(laidOutAfter byteCount: Int, in room: UnsafeMutableRawBufferPointer, spans: UnsafeBufferPointer<UInt32>) -> [UInt8] {
        let size = layoutSize(byteCount: byteCount, spanCount: spans.count)
        precondition(size <= room.count, "no room for the layout")
        let base = room.baseAddress!
        #if _endian(little)
        if let spanBase = spans.baseAddress { (base + byteCount).copyMemory(from: spanBase, byteCount: spans.count * 4) }
        #else
        for (index, span) in spans.enumerated() { room.storeBytes(of: span.littleEndian, toByteOffset: byteCount + index * 4, as: UInt32.self) }
        #endif
        room.storeBytes(of: UInt32(truncatingIfNeeded: byteCount).littleEndian, toByteOffset: size - 8, as: UInt32.self)
        room.storeBytes(of: UInt32(truncatingIfNeeded: spans.count / 4).littleEndian, toByteOffset: size - 4, as: UInt32.self)
        return Array(UnsafeRawBufferPointer(start: base, count: size))
    }

    /// The size of `storage` for `byteCount` bytes and `spanCount` spans (four a field).
    static func layoutSize(byteCount: Int, spanCount: Int) -> Int { byteCount + spanCount * 4 + 8 }

    /// The layout of `storage` from its parts: `bytes`, then `spans` (four per field), then the trailer.
    static func storage(bytes: UnsafeBufferPointer<UInt8>, spans: UnsafeBufferPointer<UInt32>) -> [UInt8] {
        let size = layoutSize(byteCount: bytes.count, spanCount: spans.count)
        // Room reserved, then the parts appended as they lie (the spans' memory is their layout on a
        // little-endian machine): `init(unsafeUninitializedCapacity:)` allocated through the standard
        // library's unspecialised `_allocateBufferUninitialized`, about 550 instructions a block for
        // the allocation alone, about 870 in all where this costs about 570 (Benchmarks/README.md).
        var storage: [UInt8] = []
        storage.reserveCapacity(size)
        storage.append(contentsOf: bytes)
        #if _endian(little)
        storage.append(contentsOf: UnsafeRawBufferPointer(spans))
        #else
        for span in spans { withUnsafeBytes(of: span.littleEndian) { storage.append(contentsOf: $0) } }
        #endif
        withUnsafeBytes(of: (UInt32(truncatingIfNeeded: bytes.count).littleEndian, UInt32(truncatingIfNeeded: spans.count / 4).littleEndian)) {
            storage.append(contentsOf: $0)
        }
        return storage
    }

    /// The layout of `storage` written in one allocation sized up front: `byteCount` bytes of names
    /// and values in all, `fieldCount` fields, each given to `write`'s writer as a name then its value.
    static func storage(byteCount: Int, fieldCount: Int, _ write: (inout Writer) -> Void) -> [UInt8] {
        var storage = [UInt8](repeating: 0, count: byteCount + fieldCount * spanBytes + 8)
        storage.withUnsafeMutableBytes { out in
            var writer = Writer(out: out, spans: byteCount)
            write(&writer)
            precondition(writer.used == byteCount && writer.spans == out.count - 8, "the fields written are the ones sized")
            out.storeBytes(of: UInt32(truncatingIfNeeded: byteCount).littleEndian, toByteOffset: out.count - 8, as: UInt32.self)
            out.storeBytes(of: UInt32(truncatingIfNeeded: fieldCount).littleEndian, toByteOffset: out.count - 4, as: UInt32.self)
        }
        return storage
    }

    /// Writes names and values, each with its span, into storage sized for them. A struct, not a
    /// local function capturing its offsets: those were boxed, each use a run-time exclusivity check.
    struct Writer {
        fileprivate let out: UnsafeMutableRawBufferPointer
        fileprivate var used = 0
        /// Where the next span goes.
        fileprivate var spans: Int

        fileprivate init(out: UnsafeMutableRawBufferPointer, spans: Int) {
            self.out = out
            self.spans = spans
        }

        /// A name or a value, and its start and end (half a field's span).
        mutating func add(_ part: UnsafeRawBufferPointer) {
            out.storeBytes(of: UInt32(truncatingIfNeeded: used).littleEndian, toByteOffset: spans, as: UInt32.self)
            if let base = part.baseAddress { (out.baseAddress! + used).copyMemory(from: base, byteCount: part.count) }
            used += part.count
            out.storeBytes(of: UInt32(truncatingIfNeeded: used).littleEndian, toByteOffset: spans + 4, as: UInt32.self)
            spans += 8
        }
    }

    static func storage(bytes: [UInt8], spans: [UInt32]) -> [UInt8] {
        bytes.withUnsafeBufferPointer { bytes in spans.withUnsafeBufferPointer { storage(bytes: bytes, spans: $0) } }
    }

    package init(storage: [UInt8], checkedFields: UInt64, overListSize: Bool) {
        self.storage = storage
        self.checkedFields = checkedFields
        self.overListSize = overListSize
    }

    /// The number of fields.
    package var count: Int { storage.withUnsafeBytes { Self.trailer($0).count } }

    /// `body` with field `index`'s name and value where they lie.
    func withField<Result>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        storage.withUnsafeBytes { raw in
            let (name, value) = Spans(raw).field(index)
            return body(name.assumingMemoryBound(to: UInt8.self), value.assumingMemoryBound(to: UInt8.self))
        }
    }

    /// The fields as `String`s (invalid UTF-8 repaired, as `HPACKDecoder.decode` makes them): the
    /// slow twin's list, for trailers and tests.
    package var fields: [(name: String, value: String)] {
        (0..<count).map { index in
            withField(index) { (String(decoding: $0, as: UTF8.self), String(decoding: $1, as: UTF8.self)) }
        }
    }

    /// Where the spans start, and the field count.
    static func trailer(_ raw: UnsafeRawBufferPointer) -> (start: Int, count: Int) {
        (Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: raw.count - 8, as: UInt32.self))),
         Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: raw.count - 4, as: UInt32.self))))
    }

    /// The fields of a storage in this layout (an HTTP/2 block's, or `ReceivedFields`' of an
    /// HTTP/1.1 head), its trailer read once.
    struct Spans {
        let raw: UnsafeRawBufferPointer
        /// Where the spans start.
        let start: Int
        let count: Int

        init(_ raw: UnsafeRawBufferPointer) {
            self.raw = raw
            (start, count) = HPACKFieldBytes.trailer(raw)
        }

        /// Field `index`'s name and value where they lie (their writer kept them within `raw`).
        func field(_ index: Int) -> (name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
            let base = raw.baseAddress!
            let span = base + start + index * HPACKFieldBytes.spanBytes
            func load(_ at: Int) -> Int { Int(UInt32(littleEndian: span.loadUnaligned(fromByteOffset: at, as: UInt32.self))) }
            let nameStart = load(0), valueStart = load(8)
            return (UnsafeRawBufferPointer(start: base + nameStart, count: load(4) - nameStart),
                    UnsafeRawBufferPointer(start: base + valueStart, count: load(12) - valueStart))
        }
    }

    /// Drops the first field (a response's `:status`, read by its head) where the storage lies:
    /// the spans start one field later.
    mutating func dropFirst() {
        storage.withUnsafeMutableBytes { raw in
            let (start, count) = Self.trailer(UnsafeRawBufferPointer(raw))
            precondition(count > 0, "no field to drop")
            raw.storeBytes(of: UInt32(truncatingIfNeeded: start + Self.spanBytes).littleEndian, toByteOffset: raw.count - 8, as: UInt32.self)
            raw.storeBytes(of: UInt32(truncatingIfNeeded: count - 1).littleEndian, toByteOffset: raw.count - 4, as: UInt32.self)
        }
    }
}
