// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceText

/// Compact JSON written into one byte buffer: strings escaped as `JSONEncoder` escapes them
/// (`"`, `\`, `\b \f \n \r \t`, other control characters as `\u00xx`; `/` and non-ASCII
/// left as they are), integers in decimal. Objects are written field by field in the order
/// the caller gives (`JSONWritable` types give theirs sorted).
///
/// The bytes are written into a buffer of its own and handed out as an array once (`bytes`): an
/// `[UInt8]` appended to checked its uniqueness and room on every append, and its
/// `append(contentsOf:)` cost ~90 instructions for a key's few bytes, ~180 a `"key":` in all
/// (the figure: Benchmarks/README.md).
public struct JSONOutput {
    private var buffer: Buffer
    /// No field written yet in the object being written: the next needs no comma.
    private var atFirstField = true

    public init(reservingCapacity capacity: Int = 256) {
        buffer = Buffer(capacity: capacity)
    }

    /// What has been written.
    public var bytes: [UInt8] {
        [UInt8](UnsafeBufferPointer(start: buffer.base, count: buffer.count))
    }

    /// The written bytes, grown by hand; copied before a change when a copy of the output shares it.
    /// Its fields skip run-time exclusivity checks: only the one output holding it changes it
    /// (`room(for:)`), and the checks cost more than the appends they guard.
    private final class Buffer {
        @exclusivity(unchecked) private(set) var base: UnsafeMutablePointer<UInt8>
        @exclusivity(unchecked) var count = 0
        @exclusivity(unchecked) private var capacity: Int

        init(capacity: Int) {
            self.capacity = max(capacity, 16)
            base = .allocate(capacity: self.capacity)
        }

        deinit { base.deallocate() }

        func copy() -> Buffer {
            let copy = Buffer(capacity: capacity)
            copy.base.update(from: base, count: count)
            copy.count = count
            return copy
        }

        /// Where the next `extra` bytes go, room made for them.
        @inline(__always)
        func room(for extra: Int) -> UnsafeMutablePointer<UInt8> {
            if count + extra > capacity { grow(to: count + extra) }
            return base + count
        }

        private func grow(to needed: Int) {
            capacity = max(needed, capacity * 2)
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
            grown.update(from: base, count: count)
            base.deallocate()
            base = grown
        }
    }

    /// Room for `extra` more bytes, in this output's own buffer.
    @inline(__always)
    private mutating func room(for extra: Int) -> UnsafeMutablePointer<UInt8> {
        if !isKnownUniquelyReferenced(&buffer) { buffer = buffer.copy() }
        return buffer.room(for: extra)
    }

    /// Appends one byte.
    @inline(__always)
    private mutating func append(_ byte: UInt8) {
        room(for: 1).pointee = byte
        buffer.count += 1
    }

    /// Appends `bytes`.
    @inline(__always)
    private mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        UnsafeMutableRawPointer(room(for: bytes.count)).copyMemory(from: source, byteCount: bytes.count)
        buffer.count += bytes.count
    }

    /// Appends a literal's bytes.
    @inline(__always)
    private mutating func append(_ text: StaticString) {
        append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// `value` as JSON bytes.
    @inlinable
    public static func encode(_ value: some JSONWritable, reservingCapacity capacity: Int = 256) -> [UInt8] {
        var json = JSONOutput(reservingCapacity: capacity)
        value.writeJSON(to: &json)
        return json.bytes
    }

    // The generic entry points are inlinable, so the answer types' calls specialize for their
    // field types; unspecialized, each field went through witness tables.

    /// `{`, the fields `body` writes, `}`.
    @inlinable
    public mutating func object(_ body: (inout JSONOutput) -> Void) {
        let outer = openObject()
        body(&self)
        closeObject(restoring: outer)
    }

    /// One `"key":value` of the object being written; `key` needs no escaping (a Swift
    /// property name).
    @inlinable
    public mutating func field(_ key: StaticString, _ value: some JSONWritable) {
        self.key(key)
        value.writeJSON(to: &self)
    }

    /// The field when `value` is not nil, as `JSONEncoder` writes an optional property of a
    /// synthesized `Encodable` (`encodeIfPresent`).
    @inlinable
    public mutating func field(_ key: StaticString, ifPresent value: (some JSONWritable)?) {
        if let value { field(key, value) }
    }

    @inlinable
    public mutating func array(_ elements: [some JSONWritable]) {
        punctuate(UInt8(ascii: "["))
        // Each element written where it is, not copied out: an iterator's copy of a `/users`
        // entry retained and released its seven strings.
        for index in elements.indices {
            if index > 0 { punctuate(UInt8(ascii: ",")) }
            elements[index].writeJSON(to: &self)
        }
        punctuate(UInt8(ascii: "]"))
    }

    /// Writes `{` and starts counting fields afresh; returns the enclosing object's count.
    @usableFromInline
    mutating func openObject() -> Bool {
        let outer = atFirstField
        atFirstField = true
        append(UInt8(ascii: "{"))
        return outer
    }

    @usableFromInline
    mutating func closeObject(restoring outer: Bool) {
        append(UInt8(ascii: "}"))
        atFirstField = outer
    }

    /// `,` unless first, then `"key":`, written in one go.
    @usableFromInline
    mutating func key(_ key: StaticString) {
        let comma = atFirstField ? 0 : 1
        atFirstField = false
        let count = key.utf8CodeUnitCount
        let out = room(for: comma + count + 3)
        if comma == 1 { out[0] = UInt8(ascii: ",") }
        out[comma] = UInt8(ascii: "\"")
        (out + comma + 1).update(from: key.utf8Start, count: count)
        out[comma + 1 + count] = UInt8(ascii: "\"")
        out[comma + 2 + count] = UInt8(ascii: ":")
        buffer.count += comma + count + 3
    }

    @usableFromInline
    mutating func punctuate(_ byte: UInt8) {
        append(byte)
    }

    public mutating func null() {
        append("null")
    }

    public mutating func bool(_ value: Bool) {
        append(value ? "true" : "false")
    }

    /// Decimal digits, `-` first when negative (`Int.min` included).
    public mutating func int(_ value: Int) {
        if value < 0 { append(UInt8(ascii: "-")) }
        let count = ASCIIDigits.decimalCount(value.magnitude)
        ASCIIDigits.writeDecimal(value.magnitude, count: count, to: room(for: count))
        buffer.count += count
    }

    public mutating func string(_ value: String) {
        // Read in place when its UTF-8 is contiguous (a native string): `withUTF8` is mutating, and
        // its copy of the string cost a retain and a release per string written (150 a `/users` answer).
        if value.utf8.withContiguousStorageIfAvailable({ utf8 in string(utf8: utf8) }) != nil { return }
        var value = value
        value.withUTF8 { utf8 in string(utf8: utf8) }
    }

    private mutating func string(utf8: UnsafeBufferPointer<UInt8>) {
        let raw = UnsafeRawBufferPointer(utf8)
        // Runs that need no escape are found eight bytes at a time and copied whole: one word
        // test per eight plain bytes, where a byte at a time made eight tests and eight appends.
        var index = JSONScan.escapeStop(in: raw, from: 0)
        guard index < utf8.count else {
            // The usual string, with nothing to escape: its quotes and bytes in one go.
            let out = room(for: utf8.count + 2)
            out[0] = UInt8(ascii: "\"")
            if let source = utf8.baseAddress { (out + 1).update(from: source, count: utf8.count) }
            out[utf8.count + 1] = UInt8(ascii: "\"")
            buffer.count += utf8.count + 2
            return
        }
        append(UInt8(ascii: "\""))
        var runStart = 0
        while index < utf8.count {
            append(UnsafeRawBufferPointer(rebasing: raw[runStart..<index]))
            escape(utf8[index])
            runStart = index + 1
            index = JSONScan.escapeStop(in: raw, from: runStart)
        }
        append(UnsafeRawBufferPointer(rebasing: raw[runStart...]))
        append(UInt8(ascii: "\""))
    }

    private mutating func escape(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): append("\\\"")
        case UInt8(ascii: "\\"): append("\\\\")
        case 0x08: append("\\b")
        case 0x0C: append("\\f")
        case UInt8(ascii: "\n"): append("\\n")
        case UInt8(ascii: "\r"): append("\\r")
        case UInt8(ascii: "\t"): append("\\t")
        default:
            append("\\u00")
            append(Self.hexDigit(byte >> 4))
            append(Self.hexDigit(byte & 0x0F))
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
