// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The protobuf wire format, as much of it as the OTLP trace request needs: varints, fixed64,
/// fixed32, doubles and length-delimited fields (strings, bytes, nested messages).
///
/// Written into one growing buffer of raw bytes: room for a whole field is made once and its
/// bytes stored without a check each (an array appended to byte by byte checked its uniqueness
/// and capacity per byte, most of an export's encoding), and a nested message is written in
/// place (see `messageField`). One writer per request body, never copied.
struct ProtobufWriter {
    // @unchecked exclusivity: one writer, used on one thread, never copied.
    private final class Storage {
        @exclusivity(unchecked) var base: UnsafeMutablePointer<UInt8>
        @exclusivity(unchecked) var count = 0
        @exclusivity(unchecked) var capacity: Int

        init(capacity: Int) {
            self.capacity = max(capacity, 64)
            base = .allocate(capacity: self.capacity)
        }

        deinit { base.deallocate() }

        /// Room for `extra` more bytes; returns where they go.
        @inline(__always)
        func reserve(_ extra: Int) -> UnsafeMutablePointer<UInt8> {
            if count + extra > capacity { grow(count + extra) }
            return base + count
        }

        private func grow(_ needed: Int) {
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: max(capacity * 2, needed))
            grown.initialize(from: base, count: count)
            base.deallocate()
            base = grown
            capacity = max(capacity * 2, needed)
        }
    }

    private let storage: Storage

    init(reservingCapacity capacity: Int = 0) {
        storage = Storage(capacity: capacity)
    }

    /// What was written: copied in one go (`Array(UnsafeBufferPointer)` copied through the
    /// generic collection path, about 7 k instructions for a `/users` request's 13 kB of spans).
    var bytes: [UInt8] {
        Array(unsafeUninitializedCapacity: storage.count) { buffer, count in
            if let target = buffer.baseAddress, storage.count > 0 { target.initialize(from: storage.base, count: storage.count) }
            count = storage.count
        }
    }

    /// `body` reads what was written, in place.
    func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        body(UnsafeBufferPointer(start: storage.base, count: storage.count))
    }

    /// `bytes` as they are (fields written before, elsewhere).
    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// `bytes` as they are, lent.
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        storage.reserve(bytes.count).initialize(from: source, count: bytes.count)
        storage.count += bytes.count
    }

    /// `count` bytes that `body` writes at once where they go (it returns how many it wrote,
    /// which must be `count`): a writer that counted its bytes first (`SizedSpan`).
    @inline(__always)
    mutating func write(exactly count: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        let written = body(storage.reserve(count))
        assert(written == count, "wrote \(written) bytes of \(count)")
        storage.count += count
    }

    /// Empties the writer and keeps its room (a batch's buffer, used again for the next one).
    func removeAll() {
        storage.count = 0
    }

    private enum WireType: UInt64 {
        case varint = 0, fixed64 = 1, lengthDelimited = 2, fixed32 = 5
    }

    /// `value` as a varint at `at`; returns its length (at most 10).
    @inline(__always)
    static func varint(_ value: UInt64, at: UnsafeMutablePointer<UInt8>) -> Int {
        var value = value
        var written = 0
        while value >= 0x80 {
            at[written] = UInt8(truncatingIfNeeded: value) | 0x80
            value >>= 7
            written += 1
        }
        at[written] = UInt8(value)
        return written + 1
    }

    /// A tag and then `body` written in room for `room` more bytes (`body` returns how many it wrote).
    @inline(__always)
    private mutating func field(_ field: Int, _ type: WireType, room: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        let at = storage.reserve(10 + room)
        let tag = Self.varint(UInt64(field) << 3 | type.rawValue, at: at)
        storage.count += tag + body(at + tag)
    }

    /// A varint field (uint32, int64 as two's complement, enums, bools); zero is left out, as proto3 does.
    mutating func varintField(_ field: Int, _ value: UInt64) {
        guard value != 0 else { return }
        varintFieldAlways(field, value)
    }

    /// An `int64`/`bool` inside a oneof: written even when zero (its presence is the choice).
    mutating func varintFieldAlways(_ field: Int, _ value: UInt64) {
        self.field(field, .varint, room: 10) { Self.varint(value, at: $0) }
    }

    mutating func fixed64Field(_ field: Int, _ value: UInt64) {
        guard value != 0 else { return }
        self.field(field, .fixed64, room: 8) { Self.littleEndian(value, bytes: 8, at: $0) }
    }

    mutating func fixed32Field(_ field: Int, _ value: UInt32) {
        guard value != 0 else { return }
        self.field(field, .fixed32, room: 4) { Self.littleEndian(UInt64(value), bytes: 4, at: $0) }
    }

    /// A `double` inside a oneof (written even when zero).
    mutating func doubleFieldAlways(_ field: Int, _ value: Double) {
        self.field(field, .fixed64, room: 8) { Self.littleEndian(value.bitPattern, bytes: 8, at: $0) }
    }

    /// `value`'s low `bytes` bytes, least significant first. Eight or four (every field here) are
    /// stored as one word: byte by byte, each shifted out, they were about three instructions a
    /// byte (a CLIENT span's ids and times, about 125 instructions). `littleEndianBytewise` is the
    /// slow twin; the tests hold the two to the same bytes.
    @inline(__always)
    static func littleEndian(_ value: UInt64, bytes: Int, at: UnsafeMutablePointer<UInt8>) -> Int {
        switch bytes {
        case 8: UnsafeMutableRawPointer(at).storeBytes(of: value.littleEndian, as: UInt64.self)
        case 4: UnsafeMutableRawPointer(at).storeBytes(of: UInt32(truncatingIfNeeded: value).littleEndian, as: UInt32.self)
        default: return littleEndianBytewise(value, bytes: bytes, at: at)
        }
        return bytes
    }

    static func littleEndianBytewise(_ value: UInt64, bytes: Int, at: UnsafeMutablePointer<UInt8>) -> Int {
        for index in 0..<bytes { at[index] = UInt8(truncatingIfNeeded: value >> UInt64(8 * index)) }
        return bytes
    }

    mutating func stringField(_ field: Int, _ value: String, always: Bool = false) {
        guard always || !value.isEmpty else { return }
        Self.withUTF8(value) { utf8 in
            self.field(field, .lengthDelimited, room: 10 + utf8.count) { at in
                let length = Self.varint(UInt64(utf8.count), at: at)
                if let source = utf8.baseAddress { (at + length).initialize(from: source, count: utf8.count) }
                return length + utf8.count
            }
        }
    }

    /// A trace id (OTLP `bytes`, 16 of them big-endian), without an array for them.
    mutating func idField(_ field: Int, _ id: TraceID) {
        self.field(field, .lengthDelimited, room: 17) { at in
            at[0] = 16
            return 1 + Self.bigEndian(id.high, at: at + 1) + Self.bigEndian(id.low, at: at + 9)
        }
    }

    /// A span id (OTLP `bytes`, 8 of them big-endian).
    mutating func idField(_ field: Int, _ id: SpanID) {
        self.field(field, .lengthDelimited, room: 9) { at in
            at[0] = 8
            return 1 + Self.bigEndian(id.value, at: at + 1)
        }
    }

    /// A `Span`'s `trace_id` and `span_id` (fields 1 and 2) at `at`: 28 bytes.
    @inline(__always)
    static func ids(of context: SpanContext, at: UnsafeMutablePointer<UInt8>) -> Int {
        at[0] = 0x0A  // trace_id: field 1, length-delimited, 16 bytes
        at[1] = 16
        _ = bigEndian(context.traceID.high, at: at + 2)
        _ = bigEndian(context.traceID.low, at: at + 10)
        at[18] = 0x12  // span_id: field 2, 8 bytes
        at[19] = 8
        _ = bigEndian(context.spanID.value, at: at + 20)
        return 28
    }

    /// `word`, most significant byte first (an id), stored as one word (`littleEndian`'s reason);
    /// `bigEndianBytewise` is the slow twin.
    @inline(__always)
    static func bigEndian(_ word: UInt64, at: UnsafeMutablePointer<UInt8>) -> Int {
        UnsafeMutableRawPointer(at).storeBytes(of: word.bigEndian, as: UInt64.self)
        return 8
    }

    static func bigEndianBytewise(_ word: UInt64, at: UnsafeMutablePointer<UInt8>) -> Int {
        for index in 0..<8 { at[index] = UInt8(truncatingIfNeeded: word >> UInt64(56 - 8 * index)) }
        return 8
    }

    /// `count` bytes from `source` to `target`, for the short ones a span holds (its name, an
    /// attribute's key): up to 16 as two words that overlap, below 8 byte by byte, where a call
    /// of `memcpy` for a few bytes was about 25 instructions with the registers the caller kept
    /// around it. Longer ones go through `initialize(from:count:)` (`memcpy`), the slow twin
    /// (the tests hold the two to the same bytes).
    @inline(__always)
    static func copyShort(_ source: UnsafePointer<UInt8>, count: Int, to target: UnsafeMutablePointer<UInt8>) {
        if count > 16 { return target.initialize(from: source, count: count) }
        if count >= 8 {
            let from = UnsafeRawPointer(source), to = UnsafeMutableRawPointer(target)
            let head = from.loadUnaligned(as: UInt64.self), tail = from.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            to.storeBytes(of: head, as: UInt64.self)
            to.storeBytes(of: tail, toByteOffset: count - 8, as: UInt64.self)
            return
        }
        var index = 0
        while index < count {
            target[index] = source[index]
            index += 1
        }
    }

    /// `body` over `text`'s UTF-8 where it lies (a small string's copied to the stack), the
    /// string itself not copied: through a `var` and `withUTF8` it was retained and released.
    @inline(__always)
    static func withUTF8<Result>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        var text = text
        return text.withUTF8(body)
    }

    /// The length of `value` as a varint (a negative `int64` is ten bytes).
    @inline(__always)
    static func varintSize(_ value: UInt64) -> Int {
        var size = 1
        while size < 10 && value >> (7 * UInt64(size)) != 0 { size += 1 }
        return size
    }

    /// The length of `value` as a varint.
    @inline(__always)
    static func varintSize(_ value: Int) -> Int {
        varintSize(UInt64(value))
    }

    /// The length of a `KeyValue` message of a `key` of that many bytes and an `AnyValue` of `valueLength`.
    @inline(__always)
    static func keyValueLength(key: Int, valueLength: Int) -> Int {
        1 + varintSize(key) + key + 1 + varintSize(valueLength) + valueLength
    }

    /// A `KeyValue` message of `key` and an `AnyValue` written by `value` in room for `valueRoom`
    /// bytes, all in one reservation: the lengths are known before anything is written, so
    /// nothing is written in place and moved (`messageField`'s way) and no closure is nested
    /// per level. `valueLength` is the `AnyValue`'s length; `value` returns what it wrote.
    @inline(__always)
    private mutating func keyValueField(
        _ field: Int, key: String, valueLength: Int, _ value: (UnsafeMutablePointer<UInt8>) -> Int
    ) {
        Self.withUTF8(key) { key in
            let keyValueLength = Self.keyValueLength(key: key.count, valueLength: valueLength)
            self.field(field, .lengthDelimited, room: 10 + keyValueLength) { at in
                var written = Self.varint(UInt64(keyValueLength), at: at)
                at[written] = 0x0A  // KeyValue.key: field 1, length-delimited
                written += 1
                written += Self.varint(UInt64(key.count), at: at + written)
                if let source = key.baseAddress { (at + written).initialize(from: source, count: key.count) }
                written += key.count
                at[written] = 0x12  // KeyValue.value: field 2, length-delimited
                written += 1
                written += Self.varint(UInt64(valueLength), at: at + written)
                return written + value(at + written)
            }
        }
    }

    /// A `KeyValue` whose value is a string (`AnyValue.string_value`, field 1).
    mutating func keyValueField(_ field: Int, key: String, string: String) {
        Self.withUTF8(string) { text in
            keyValueField(field, key: key, valueLength: 1 + Self.varintSize(text.count) + text.count) { at in
                at[0] = 0x0A
                let length = Self.varint(UInt64(text.count), at: at + 1)
                if let source = text.baseAddress { (at + 1 + length).initialize(from: source, count: text.count) }
                return 1 + length + text.count
            }
        }
    }

    /// A `KeyValue` whose value is a varint of the `AnyValue` field `valueField` (bool 2, int 3),
    /// written even when zero (a oneof's choice).
    mutating func keyValueField(_ field: Int, key: String, varintField valueField: Int, _ value: UInt64) {
        keyValueField(field, key: key, valueLength: 1 + Self.varintSize(value)) { at in
            at[0] = UInt8(valueField << 3)
            return 1 + Self.varint(value, at: at + 1)
        }
    }

    /// A `KeyValue` whose value is a double (`AnyValue.double_value`, field 4, fixed64).
    mutating func keyValueField(_ field: Int, key: String, double: Double) {
        keyValueField(field, key: key, valueLength: 9) { at in
            at[0] = 0x21
            return 1 + Self.littleEndian(double.bitPattern, bytes: 8, at: at + 1)
        }
    }

    /// A nested message, written by `body` in place and then length-prefixed: one byte is kept
    /// for the length, and the body moves only when its length needs more (128 bytes or over),
    /// so a span's many small messages (attributes, values) cost no buffer of their own.
    mutating func messageField(_ field: Int, _ body: (inout ProtobufWriter) -> Void) {
        self.field(field, .lengthDelimited, room: 1) { _ in 1 }
        let lengthAt = storage.count - 1
        body(&self)
        let length = storage.count - lengthAt - 1
        var size = 1
        while length >> (7 * size) != 0 { size += 1 }
        if size > 1 {
            _ = storage.reserve(size - 1)
            memmove(storage.base + lengthAt + size, storage.base + lengthAt + 1, length)
            storage.count += size - 1
        }
        _ = Self.varint(UInt64(length), at: storage.base + lengthAt)
    }
}
