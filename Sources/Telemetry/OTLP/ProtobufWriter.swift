// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// The protobuf wire format, as much of it as the OTLP trace request needs: varints, fixed64,
/// fixed32, doubles and length-delimited fields (strings, bytes, nested messages).
struct ProtobufWriter {
    private(set) var bytes: [UInt8] = []

    init(reservingCapacity capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    private enum WireType: UInt64 {
        case varint = 0, fixed64 = 1, lengthDelimited = 2, fixed32 = 5
    }

    private mutating func tag(_ field: Int, _ type: WireType) {
        varint(UInt64(field) << 3 | type.rawValue)
    }

    private mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// A varint field (uint32, int64 as two's complement, enums, bools); zero is left out, as proto3 does.
    mutating func varintField(_ field: Int, _ value: UInt64) {
        guard value != 0 else { return }
        tag(field, .varint)
        varint(value)
    }

    /// An `int64`/`bool` inside a oneof: written even when zero (its presence is the choice).
    mutating func varintFieldAlways(_ field: Int, _ value: UInt64) {
        tag(field, .varint)
        varint(value)
    }

    mutating func fixed64Field(_ field: Int, _ value: UInt64) {
        guard value != 0 else { return }
        tag(field, .fixed64)
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    mutating func fixed32Field(_ field: Int, _ value: UInt32) {
        guard value != 0 else { return }
        tag(field, .fixed32)
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    /// A `double` inside a oneof (written even when zero).
    mutating func doubleFieldAlways(_ field: Int, _ value: Double) {
        tag(field, .fixed64)
        let bits = value.bitPattern
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
    }

    mutating func stringField(_ field: Int, _ value: String, always: Bool = false) {
        guard always || !value.isEmpty else { return }
        tag(field, .lengthDelimited)
        varint(UInt64(value.utf8.count))
        bytes.append(contentsOf: value.utf8)
    }

    /// A trace id (OTLP `bytes`, 16 of them big-endian), without an array for them.
    mutating func idField(_ field: Int, _ id: TraceID) {
        tag(field, .lengthDelimited)
        varint(16)
        bigEndian(id.high)
        bigEndian(id.low)
    }

    /// A span id (OTLP `bytes`, 8 of them big-endian).
    mutating func idField(_ field: Int, _ id: SpanID) {
        tag(field, .lengthDelimited)
        varint(8)
        bigEndian(id.value)
    }

    private mutating func bigEndian(_ word: UInt64) {
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
    }

    /// A nested message, written by `body` in place and then length-prefixed: one byte is kept
    /// for the length, and the body moves only when its length needs more (128 bytes or over),
    /// so a span's many small messages (attributes, values) cost no buffer of their own.
    mutating func messageField(_ field: Int, _ body: (inout ProtobufWriter) -> Void) {
        tag(field, .lengthDelimited)
        let lengthAt = bytes.count
        bytes.append(0)
        body(&self)
        var length = bytes.count - lengthAt - 1
        var size = 1
        while length >> (7 * size) != 0 { size += 1 }
        if size > 1 { bytes.insert(contentsOf: repeatElement(0, count: size - 1), at: lengthAt + 1) }
        for index in 0..<size {
            bytes[lengthAt + index] = UInt8(truncatingIfNeeded: length) & 0x7F | (index < size - 1 ? 0x80 : 0)
            length >>= 7
        }
    }
}
