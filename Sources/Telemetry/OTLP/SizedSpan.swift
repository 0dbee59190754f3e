// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import Tracing

/// A span's whole `ScopeSpans.spans` field (tag, length, `Span` message) counted first and then
/// written in one reservation at a pointer, its tags constants: what a span of this service
/// (a CLIENT span: ids, times, a short list of scalar attributes, its origin's shared ones, a
/// status) is written as when it ends. `spanField` around `writeSpan` wrote it in place and
/// moved it once its length was known (two bytes from 128), reserved room per field and went
/// through the writer's storage per field: 1.8 k instructions a CLIENT span, now 0.8 k to write
/// and 0.3 k to count (`RecordingSpan.finish` 2.6 k -> 2.15 k; Benchmarks/README.md, Ledger).
/// Only for what it writes: a span with events, links, attributes set through the span API or
/// a list value that is not a scalar has no `SizedSpan` (nil), and takes the slow twin, which
/// writes the same bytes for the spans this one takes (`OTLPEncodingTests`).
struct SizedSpan {
    /// A string attribute of a span's own, written from its two strings' bytes, lent by the
    /// caller: an `Entry` made for it and its `StoredValue` switched on copied the value through
    /// its value witness, twice (about 330 instructions a CLIENT span's `url.full`, counted and
    /// written; `entry` is the slow twin, the tests hold the two to the same bytes); the strings
    /// held as they are were retained and released, and their bytes looked up to count and again
    /// to write.
    struct OwnString {
        let key: UnsafeBufferPointer<UInt8>
        let value: UnsafeBufferPointer<UInt8>
    }

    /// The `Span` message's length (without its tag and length).
    let bodyLength: Int

    /// The field's whole length: tag, length and message. Counted once, in `init`: a getter, it
    /// was a call of its own, its varint's size counted in a loop (about 15 instructions a span).
    let fieldLength: Int

    /// nil when the span holds what this writer does not write.
    init?(
        context: SpanContext, parentSpanID: SpanID?, name: String, start: UInt64, end: UInt64, attributes: SpanAttributes,
        list: SpanAttributeList, events: [SpanRecord.Event], links: [SpanRecord.Link], status: SpanStatus?,
        own: UnsafePointer<OwnString>? = nil, shared: OTLPProtobufEncoding.EncodedAttributes?
    ) {
        guard attributes.isEmpty, events.isEmpty, links.isEmpty else { return nil }
        self.init(context: context, parentSpanID: parentSpanID, name: name, start: start, end: end, list: list, status: status, own: own, shared: shared)
    }

    /// `init` of a span without attributes set through the span API, events or links (the
    /// caller knows it has none: no empty ones made to be checked).
    init?(
        context: SpanContext, parentSpanID: SpanID?, name: String, start: UInt64, end: UInt64, list: SpanAttributeList, status: SpanStatus?,
        own: UnsafePointer<OwnString>? = nil, shared: OTLPProtobufEncoding.EncodedAttributes?
    ) {
        let made = ProtobufWriter.withUTF8(name) { name in
            list.entries.withUnsafeBufferPointer { entries in
                SizedSpan(
                    context: context, parentSpanID: parentSpanID, name: name, start: start, end: end, entries: entries, status: status, own: own,
                    sharedLength: shared?.bytes.count ?? 0)
            }
        }
        guard let made else { return nil }
        self = made
    }

    /// `init` of the span's name and attribute list lent where they lie (`RecordingSpan.finish`
    /// reads them once, outside the processor's lock, and writes with the same: passed as a
    /// string and a list, each was retained and released around the write under the lock, and
    /// the name's bytes looked up to count and again to write). `sharedLength`: the shared
    /// attributes' bytes (`EncodedAttributes.bytes`), counted without their object.
    init?(
        context: SpanContext, parentSpanID: SpanID?, name: UnsafeBufferPointer<UInt8>, start: UInt64, end: UInt64,
        entries: UnsafeBufferPointer<SpanAttributeList.Entry>, status: SpanStatus?, own: UnsafePointer<OwnString>? = nil,
        sharedLength: Int
    ) {
        var length = 18 + 10 + 2  // trace_id, span_id, kind
        if let state = context.traceState { length += Self.stringSize(state) }
        if parentSpanID != nil { length += 10 }
        if name.count > 0 { length += 1 + ProtobufWriter.varintSize(name.count) + name.count }
        if start != 0 { length += 9 }
        if end != 0 { length += 9 }
        if let first = entries.baseAddress {
            for index in entries.indices {
                guard let size = Self.entrySize(first + index) else { return nil }
                length += size
            }
        }
        if let own { length += Self.stringEntrySize(own) }
        length += sharedLength
        if let status { length += Self.statusSize(status) }
        if context.traceFlags != 0 { length += 6 }
        bodyLength = length
        fieldLength = 1 + ProtobufWriter.varintSize(length) + length
    }

    /// Writes the field at `at` (room for `fieldLength` bytes); returns how many bytes it wrote.
    /// The arguments are `init`'s; `own` is an attribute written after the list's (a span's one
    /// attribute not made into a list: `RecordingSpan.end(adding:string:sharing:at:)`).
    func write(
        at start: UnsafeMutablePointer<UInt8>, context: SpanContext, parentSpanID: SpanID?, name: String, kind: SpanKind,
        start startNanoseconds: UInt64, end: UInt64, list: SpanAttributeList, status: SpanStatus?,
        own: UnsafePointer<OwnString>? = nil, shared: OTLPProtobufEncoding.EncodedAttributes?
    ) -> Int {
        guard let shared else {
            return write(
                at: start, context: context, parentSpanID: parentSpanID, name: name, kind: kind, start: startNanoseconds, end: end, list: list,
                status: status, own: own, sharedBytes: nil)
        }
        return withExtendedLifetime(shared) {
            write(
                at: start, context: context, parentSpanID: parentSpanID, name: name, kind: kind, start: startNanoseconds, end: end, list: list,
                status: status, own: own, sharedBytes: shared.bytes)
        }
    }

    /// `write(at:…shared:)` with the shared attributes' bytes lent (`EncodedAttributes.bytes`),
    /// so a caller's closure holds no reference to them (`RecordingSpan.finish`).
    func write(
        at start: UnsafeMutablePointer<UInt8>, context: SpanContext, parentSpanID: SpanID?, name: String, kind: SpanKind,
        start startNanoseconds: UInt64, end: UInt64, list: SpanAttributeList, status: SpanStatus?,
        own: UnsafePointer<OwnString>?, sharedBytes: UnsafeBufferPointer<UInt8>?
    ) -> Int {
        ProtobufWriter.withUTF8(name) { name in
            list.entries.withUnsafeBufferPointer { entries in
                write(
                    at: start, context: context, parentSpanID: parentSpanID, name: name, kind: kind, start: startNanoseconds, end: end,
                    entries: entries, status: status, own: own, sharedBytes: sharedBytes)
            }
        }
    }

    /// `write` of the name and attributes lent where they lie, as the lending `init` counted them.
    func write(
        at start: UnsafeMutablePointer<UInt8>, context: SpanContext, parentSpanID: SpanID?, name: UnsafeBufferPointer<UInt8>, kind: SpanKind,
        start startNanoseconds: UInt64, end: UInt64, entries: UnsafeBufferPointer<SpanAttributeList.Entry>, status: SpanStatus?,
        own: UnsafePointer<OwnString>?, sharedBytes: UnsafeBufferPointer<UInt8>?
    ) -> Int {
        var at = start
        at[0] = 0x12  // ScopeSpans.spans: field 2, length-delimited
        at += 1 + ProtobufWriter.varint(UInt64(bodyLength), at: at + 1)
        at += ProtobufWriter.ids(of: context, at: at)
        if let state = context.traceState { at += Self.string(0x1A, state, at: at) }  // trace_state: field 3
        if let parentSpanID {
            at[0] = 0x22  // parent_span_id: field 4, 8 bytes
            at[1] = 8
            at += 2 + ProtobufWriter.bigEndian(parentSpanID.value, at: at + 2)
        }
        if let source = name.baseAddress, name.count > 0 {
            at[0] = 0x2A  // name: field 5
            at += 1 + ProtobufWriter.varint(UInt64(name.count), at: at + 1)
            ProtobufWriter.copyShort(source, count: name.count, to: at)
            at += name.count
        }
        at[0] = 0x30  // kind: field 6, varint (1-5)
        at[1] = UInt8(OTLPKind.number(kind))
        at += 2
        if startNanoseconds != 0 {
            at[0] = 0x39  // start_time_unix_nano: field 7, fixed64
            at += 1 + ProtobufWriter.littleEndian(startNanoseconds, bytes: 8, at: at + 1)
        }
        if end != 0 {
            at[0] = 0x41  // end_time_unix_nano: field 8, fixed64
            at += 1 + ProtobufWriter.littleEndian(end, bytes: 8, at: at + 1)
        }
        if let first = entries.baseAddress {
            for index in entries.indices { at += Self.entry(first + index, at: at) }
        }
        if let own { at += Self.stringEntry(own, at: at) }
        if let bytes = sharedBytes {
            if let source = bytes.baseAddress { at.initialize(from: source, count: bytes.count) }
            at += bytes.count
        }
        if let status {
            let message = status.message ?? ""
            let inner = Self.stringSize(message) + 2
            at[0] = 0x7A  // status: field 15, length-delimited
            at += 1 + ProtobufWriter.varint(UInt64(inner), at: at + 1)
            at += Self.string(0x12, message, at: at)  // Status.message: field 2
            at[0] = 0x18  // Status.code: field 3, varint (1 or 2)
            at[1] = UInt8(OTLPKind.statusCode(status.code))
            at += 2
        }
        if context.traceFlags != 0 {
            at[0] = 0x85  // flags: field 16, fixed32 (a two-byte tag)
            at[1] = 0x01
            at += 2 + ProtobufWriter.littleEndian(UInt64(context.traceFlags), bytes: 4, at: at + 2)
        }
        return at - start
    }

    /// A string field's length with its one-byte tag; zero for an empty string (proto3 leaves it out).
    private static func stringSize(_ text: String) -> Int {
        let count = text.utf8.count
        return count == 0 ? 0 : 1 + ProtobufWriter.varintSize(count) + count
    }

    /// A string field (tag `tag`); nothing for an empty string.
    @inline(__always)
    private static func string(_ tag: UInt8, _ text: String, at: UnsafeMutablePointer<UInt8>) -> Int {
        ProtobufWriter.withUTF8(text) { utf8 in
            guard let source = utf8.baseAddress, utf8.count > 0 else { return 0 }
            at[0] = tag
            let length = ProtobufWriter.varint(UInt64(utf8.count), at: at + 1)
            (at + 1 + length).initialize(from: source, count: utf8.count)
            return 1 + length + utf8.count
        }
    }

    private static func statusSize(_ status: SpanStatus) -> Int {
        let inner = stringSize(status.message ?? "") + 2
        return 1 + ProtobufWriter.varintSize(inner) + inner
    }


    /// An `attributes` field's (9) whole length; nil for a value that is not a scalar.
    /// The value is switched on where it lies: passed on as a value, `StoredValue` was copied
    /// through its value witness (an `other` case holds a `SpanAttribute`), about 120
    /// instructions an attribute.
    static func entrySize(_ entry: UnsafePointer<SpanAttributeList.Entry>) -> Int? {
        let value: Int
        switch entry.pointee.stored {
        case .string(let text): value = 1 + ProtobufWriter.varintSize(text.utf8.count) + text.utf8.count
        case .int64(let number): value = 1 + ProtobufWriter.varintSize(UInt64(bitPattern: number))
        case .bool: value = 2
        case .double: value = 9
        case .other: return nil
        }
        let keyValue = ProtobufWriter.keyValueLength(key: entry.pointee.key.utf8.count, valueLength: value)
        return 1 + ProtobufWriter.varintSize(keyValue) + keyValue
    }

    /// An `attributes` field (9): `KeyValue { key, value: AnyValue }`, as
    /// `ProtobufWriter.keyValueField` writes it; one switch on the value, which `entrySize`
    /// found to be a scalar.
    static func entry(_ entry: UnsafePointer<SpanAttributeList.Entry>, at start: UnsafeMutablePointer<UInt8>) -> Int {
        switch entry.pointee.stored {
        case .string(let text):
            return ProtobufWriter.withUTF8(text) { utf8 in
                var at = start + keyValueHead(entry, valueLength: 1 + ProtobufWriter.varintSize(utf8.count) + utf8.count, at: start)
                at[0] = 0x0A  // AnyValue.string_value: field 1 (written even when empty)
                at += 1 + ProtobufWriter.varint(UInt64(utf8.count), at: at + 1)
                if let source = utf8.baseAddress { at.initialize(from: source, count: utf8.count) }
                return at + utf8.count - start
            }
        case .int64(let number):
            let value = UInt64(bitPattern: number)
            let at = start + keyValueHead(entry, valueLength: 1 + ProtobufWriter.varintSize(value), at: start)
            at[0] = 0x18  // AnyValue.int_value: field 3, varint
            return at + 1 + ProtobufWriter.varint(value, at: at + 1) - start
        case .bool(let flag):
            let at = start + keyValueHead(entry, valueLength: 2, at: start)
            at[0] = 0x10  // AnyValue.bool_value: field 2, varint
            at[1] = flag ? 1 : 0
            return at + 2 - start
        case .double(let number):
            let at = start + keyValueHead(entry, valueLength: 9, at: start)
            at[0] = 0x21  // AnyValue.double_value: field 4, fixed64
            return at + 1 + ProtobufWriter.littleEndian(number.bitPattern, bytes: 8, at: at + 1) - start
        case .other:
            return 0
        }
    }

    /// The most bytes a key and a string value of `OwnString` may hold together for every length
    /// of their `attributes` field to be one byte (the `KeyValue`, 6 bytes of tags and lengths
    /// beside them, under 128): a CLIENT span's `url.full` and a SERVER span's `url.path`.
    static var oneByteLengthsLimit: Int { 127 - 6 }

    /// `entrySize` of a string attribute, from its strings' bytes.
    @inline(__always)
    static func stringEntrySize(_ own: UnsafePointer<OwnString>) -> Int {
        let count = own.pointee.key.count + own.pointee.value.count
        // Every length one byte: 2 + (2 + key + 2 + (2 + value)); the varint sizes, each
        // counted in a loop, were about 37 instructions a CLIENT span.
        if count <= oneByteLengthsLimit { return 8 + count }
        return stringEntrySizeVarint(own)
    }

    /// `stringEntrySize` with every length's varint counted: the slow twin (the tests hold the two equal).
    static func stringEntrySizeVarint(_ own: UnsafePointer<OwnString>) -> Int {
        let count = own.pointee.value.count
        let keyValue = ProtobufWriter.keyValueLength(key: own.pointee.key.count, valueLength: 1 + ProtobufWriter.varintSize(count) + count)
        return 1 + ProtobufWriter.varintSize(keyValue) + keyValue
    }

    /// `entry` of a string attribute, from its strings' bytes: the same bytes. When every length
    /// is one byte (`oneByteLengthsLimit`) its eight tags and lengths are stored as they are, where
    /// each length was counted and written as a varint in a loop, with an overflow check per
    /// step (`stringEntry` 149 instructions a CLIENT span; `stringEntryVarint` is the slow twin,
    /// the tests hold the two to the same bytes).
    static func stringEntry(_ own: UnsafePointer<OwnString>, at start: UnsafeMutablePointer<UInt8>) -> Int {
        let key = own.pointee.key, value = own.pointee.value
        guard key.count + value.count <= oneByteLengthsLimit else { return stringEntryVarint(own, at: start) }
        start[0] = 0x4A  // Span.attributes: field 9, length-delimited
        start[1] = UInt8(truncatingIfNeeded: 6 &+ key.count &+ value.count)
        start[2] = 0x0A  // KeyValue.key: field 1
        start[3] = UInt8(truncatingIfNeeded: key.count)
        if let source = key.baseAddress { ProtobufWriter.copyShort(source, count: key.count, to: start + 4) }
        let at = start + 4 + key.count
        at[0] = 0x12  // KeyValue.value: field 2
        at[1] = UInt8(truncatingIfNeeded: 2 &+ value.count)
        at[2] = 0x0A  // AnyValue.string_value: field 1 (written even when empty)
        at[3] = UInt8(truncatingIfNeeded: value.count)
        if let source = value.baseAddress { (at + 4).initialize(from: source, count: value.count) }
        return 8 &+ key.count &+ value.count
    }

    /// `stringEntry` with every length written as a varint: the slow twin.
    static func stringEntryVarint(_ own: UnsafePointer<OwnString>, at start: UnsafeMutablePointer<UInt8>) -> Int {
        let value = own.pointee.value
        var at = start + keyValueHead(keyBytes: own.pointee.key, valueLength: 1 + ProtobufWriter.varintSize(value.count) + value.count, at: start)
        at[0] = 0x0A  // AnyValue.string_value: field 1 (written even when empty)
        at += 1 + ProtobufWriter.varint(UInt64(value.count), at: at + 1)
        if let source = value.baseAddress { at.initialize(from: source, count: value.count) }
        return at + value.count - start
    }

    /// The field's tag and length, the `KeyValue`'s key and the value's tag and length (`valueLength`
    /// the `AnyValue`'s); returns how many bytes it wrote.
    @inline(__always)
    private static func keyValueHead(_ entry: UnsafePointer<SpanAttributeList.Entry>, valueLength: Int, at start: UnsafeMutablePointer<UInt8>) -> Int {
        keyValueHead(key: entry.pointee.key, valueLength: valueLength, at: start)
    }

    @inline(__always)
    private static func keyValueHead(key: String, valueLength: Int, at start: UnsafeMutablePointer<UInt8>) -> Int {
        ProtobufWriter.withUTF8(key) { key in keyValueHead(keyBytes: key, valueLength: valueLength, at: start) }
    }

    @inline(__always)
    private static func keyValueHead(keyBytes key: UnsafeBufferPointer<UInt8>, valueLength: Int, at start: UnsafeMutablePointer<UInt8>) -> Int {
        var at = start
        at[0] = 0x4A  // Span.attributes: field 9, length-delimited
        at += 1 + ProtobufWriter.varint(UInt64(ProtobufWriter.keyValueLength(key: key.count, valueLength: valueLength)), at: at + 1)
        at[0] = 0x0A  // KeyValue.key: field 1 (written even when empty)
        at += 1 + ProtobufWriter.varint(UInt64(key.count), at: at + 1)
        if let source = key.baseAddress { at.initialize(from: source, count: key.count) }
        at += key.count
        at[0] = 0x12  // KeyValue.value: field 2
        at += 1 + ProtobufWriter.varint(UInt64(valueLength), at: at + 1)
        return at - start
    }
}
