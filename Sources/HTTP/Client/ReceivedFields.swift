// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// A received answer's header fields as they came: the field lines' bytes and where each
/// name and value lies in them, checked by the parser. A `String` is made only for a field
/// that is read: a caller reads one or two of an answer's seven to fifteen fields, so no
/// `String` is made for every name and value, nor a list for them to go into.
///
/// Names and values are looked up by name ASCII case-insensitively, in the order received.
/// The bytes and the positions share one array (positions after the bytes, where they start
/// and their count last), so a copy of the fields is one reference: an answer is copied
/// several times on its way through the pipelines.
public struct ReceivedFields: Sendable, Equatable {
    /// Field bytes, then per field four `UInt32` offsets (name start and end, value start and end),
    /// maybe unused room, then the bytes' length (where the offsets start) and the field count as `UInt32`s.
    private let storage: [UInt8]

    /// An empty list.
    public init() {
        storage = [0, 0, 0, 0, 0, 0, 0, 0]
    }

    fileprivate init(storage: [UInt8]) {
        self.storage = storage
    }

    /// A head's fields from its field lines and their positions in them (four `UInt32`s a field,
    /// little-endian, as this layout keeps them), stored at once: `HTTPResponseParser`'s one-pass
    /// walk gathers the positions on the stack, where `Builder` zeroed room for them first.
    init(lines: UnsafeRawBufferPointer, spans: UnsafeRawBufferPointer, count: Int) {
        // Laid out on the stack, then copied into the array at once: three appends to a reserved
        // array cost ~580 instructions an answer with the allocation, this ~370 (callgrind).
        let total = lines.count + spans.count + 8
        storage = withUnsafeTemporaryAllocation(byteCount: total, alignment: 8) { buffer in
            buffer.copyMemory(from: lines)
            UnsafeMutableRawBufferPointer(rebasing: buffer[lines.count...]).copyMemory(from: spans)
            buffer.storeBytes(of: UInt32(truncatingIfNeeded: lines.count).littleEndian, toByteOffset: total - 8, as: UInt32.self)
            buffer.storeBytes(of: UInt32(truncatingIfNeeded: count).littleEndian, toByteOffset: total - 4, as: UInt32.self)
            return [UInt8](UnsafeRawBufferPointer(buffer))
        }
    }

    /// An HTTP/2 block's fields as its decoder wrote them (`HPACKFieldBytes`, in this layout), the storage adopted.
    init(_ block: consuming HPACKFieldBytes) {
        storage = block.storage
    }

    /// These fields, in order (an HTTP/2 head's slow twin, and tests).
    init(listing fields: some Sequence<(name: String, value: String)>) {
        storage = HPACKFieldBytes(listing: fields).storage
    }

    /// `body` with the fields where they lie (an HTTP/2 gzip answer's are copied from there: `HTTP2ResponseBody`).
    func withSpans<Result>(_ body: (HPACKFieldBytes.Spans) -> Result) -> Result {
        storage.withUnsafeBytes { body(HPACKFieldBytes.Spans($0)) }
    }

    /// The number of fields, repeats counted.
    public var count: Int {
        storage.withUnsafeBytes { HPACKFieldBytes.trailer($0).count }
    }

    /// True when the answer had no field.
    public var isEmpty: Bool { count == 0 }

    /// The fields as a list of `String` pairs, in order.
    public var headers: HTTPHeaders {
        storage.withUnsafeBytes { raw in
            let fields = HPACKFieldBytes.Spans(raw)
            var headers = HTTPHeaders(reservingCapacity: fields.count + 2)
            for index in 0..<fields.count {
                let (name, value) = fields.field(index)
                headers.add(name: CommonFieldName.string(for: name) ?? String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self))
            }
            return headers
        }
    }

    /// The first value of the fields named `name` (any case), or nil.
    public subscript(name: String) -> String? {
        var result: String?
        forEachValue(named: name) { value in
            result = String(decoding: value, as: UTF8.self)
            return false
        }
        return result
    }

    /// The values of every field named `name` (any case) joined with `, ` (RFC 9110 §5.3); nil without one.
    /// Its own walk, not `forEachValue`'s with a closure: an upstream answer's fields are read here
    /// (`UpstreamResponse.header`), and the closures and their calls cost ~115 of the ~720
    /// instructions a lookup, 34 lookups a `/users?limit=30` request (callgrind).
    public func combinedValue(for name: String) -> String? {
        var name = name
        return name.withUTF8 { wanted in
            storage.withUnsafeBytes { raw -> String? in
                let fields = HPACKFieldBytes.Spans(raw)
                var result: String?
                for index in 0..<fields.count {
                    let (fieldName, value) = fields.field(index)
                    guard fieldName.count == wanted.count, HTTPHeaders.sameBytes(fieldName.assumingMemoryBound(to: UInt8.self), wanted) else { continue }
                    let text = String(decoding: value, as: UTF8.self)
                    result = result.map { "\($0), \(text)" } ?? text
                }
                return result
            }
        }
    }

    /// True when a field is named `name` (any case).
    public func contains(_ name: String) -> Bool {
        var found = false
        forEachValue(named: name) { _ in
            found = true
            return false
        }
        return found
    }

    /// Calls `body` with the value of each field named `name` (any case), in order, until it returns false.
    private func forEachValue(named name: String, _ body: (UnsafeRawBufferPointer) -> Bool) {
        var name = name
        name.withUTF8 { wanted in
            storage.withUnsafeBytes { raw in
                let fields = HPACKFieldBytes.Spans(raw)
                for index in 0..<fields.count {
                    let (fieldName, value) = fields.field(index)
                    guard fieldName.count == wanted.count, HTTPHeaders.sameBytes(fieldName.assumingMemoryBound(to: UInt8.self), wanted) else { continue }
                    if !body(value) { return }
                }
            }
        }
    }

    /// Equal when the same fields come in the same order.
    public static func == (lhs: ReceivedFields, rhs: ReceivedFields) -> Bool {
        lhs.headers == rhs.headers
    }

    /// Collects the fields of one head: the bytes of its field lines copied once, then each
    /// field's position within them as the parser finds it, in the same array. Positions are
    /// stored into room made up front: appended four bytes at a time, each append checked the
    /// array's room and uniqueness.
    struct Builder {
        private var storage: [UInt8]
        private let linesCount: Int
        private(set) var count = 0

        /// Room for 20 fields' positions: a typical API answer has 7 to 15 fields.
        private static let initialSlots = 20

        /// - Parameter lines: the head's field lines (CRLF-separated, without the blank line).
        init(lines: UnsafeRawBufferPointer) {
            let room = Self.initialSlots * HPACKFieldBytes.spanBytes + 8
            // Reserved, then appended (as `HPACKFieldBytes.storage` does): `init(unsafeUninitializedCapacity:)`
            // allocated through the standard library's unspecialised `_allocateBufferUninitialized`,
            // ~560 instructions an answer, ~370 of them finding the storage's type.
            var storage: [UInt8] = []
            storage.reserveCapacity(lines.count + room)
            storage.append(contentsOf: lines)
            // The positions' room is zeroed: it is written as the fields come.
            withUnsafeTemporaryAllocation(byteCount: room, alignment: 8) { zeros in
                zeros.initializeMemory(as: UInt8.self, repeating: 0)
                storage.append(contentsOf: UnsafeRawBufferPointer(zeros))
            }
            self.storage = storage
            linesCount = lines.count
        }

        /// A field whose name and value lie at these positions of `lines`.
        mutating func add(name: Range<Int>, value: Range<Int>) {
            let offset = linesCount + count * HPACKFieldBytes.spanBytes
            if offset + HPACKFieldBytes.spanBytes + 8 > storage.count {
                storage.append(contentsOf: repeatElement(0, count: Self.initialSlots * HPACKFieldBytes.spanBytes))
            }
            storage.withUnsafeMutableBytes { raw in
                raw.storeBytes(of: UInt32(truncatingIfNeeded: name.lowerBound).littleEndian, toByteOffset: offset, as: UInt32.self)
                raw.storeBytes(of: UInt32(truncatingIfNeeded: name.upperBound).littleEndian, toByteOffset: offset + 4, as: UInt32.self)
                raw.storeBytes(of: UInt32(truncatingIfNeeded: value.lowerBound).littleEndian, toByteOffset: offset + 8, as: UInt32.self)
                raw.storeBytes(of: UInt32(truncatingIfNeeded: value.upperBound).littleEndian, toByteOffset: offset + 12, as: UInt32.self)
            }
            count += 1
        }

        /// The fields, unused room kept (dropping it would copy the storage once more).
        /// Mutating, not consuming: a consumed builder's array was copied once more.
        mutating func build() -> ReceivedFields {
            storage.withUnsafeMutableBytes { raw in
                raw.storeBytes(of: UInt32(truncatingIfNeeded: linesCount).littleEndian, toByteOffset: raw.count - 8, as: UInt32.self)
                raw.storeBytes(of: UInt32(truncatingIfNeeded: count).littleEndian, toByteOffset: raw.count - 4, as: UInt32.self)
            }
            return ReceivedFields(storage: storage)
        }
    }
}
