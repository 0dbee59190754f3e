// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A connection's header field lines as its last request sent them, with what the parser made
/// of each (`HeadReplay`'s line-by-line half): a line equal byte for byte to the one at its
/// position last time reuses that line's checks and strings instead of being validated and
/// decoded again, a comparison of its bytes instead of a parse.
///
/// Lines are kept in one byte buffer, so keeping them costs no allocation per line; at most
/// `maxBytes` of them, so an idle connection holds little.
struct FieldLineCache {
    struct Field {
        let name: String
        let value: String
        /// Where the value lies in the line (for the `Connection` options, read from bytes).
        let valueRange: Range<Int>
        let kind: FieldFacts.Kind?
        fileprivate let start: Int
        fileprivate let count: Int
    }

    /// About a browser's fields; a curl or API client's are a quarter of it.
    static let maxBytes = 1024
    static let maxFields = 24

    private var bytes: [UInt8] = []
    private var fields: [Field] = []

    /// What was made of `line` when it was the `index`th field line last time, if it was; as a
    /// tuple, so the caller moves the strings on (a `Field` copied out and destroyed cost more
    /// than the comparison).
    func field(_ line: UnsafeRawBufferPointer, at index: Int) -> (name: String, value: String, valueRange: Range<Int>, kind: FieldFacts.Kind?)? {
        guard index < fields.count, fields[index].count == line.count else { return nil }
        let start = fields[index].start
        let same = bytes.withUnsafeBytes { memcmp($0.baseAddress! + start, line.baseAddress!, line.count) == 0 }
        guard same else { return nil }
        return (fields[index].name, fields[index].value, fields[index].valueRange, fields[index].kind)
    }

    /// Keeps `line` as the `index`th field line, with what was made of it. A line of another
    /// length than the one it replaces drops the lines after it too (they are kept again as
    /// they arrive), so the buffer stays in line order without moving bytes.
    mutating func remember(
        _ line: UnsafeRawBufferPointer, at index: Int, name: String, value: String, valueRange: Range<Int>, kind: FieldFacts.Kind?
    ) {
        guard index <= fields.count else { return }
        if index < fields.count {
            let old = fields[index]
            if old.count == line.count {
                bytes.withUnsafeMutableBytes { _ = memcpy($0.baseAddress! + old.start, line.baseAddress!, line.count) }
                fields[index] = Field(name: name, value: value, valueRange: valueRange, kind: kind, start: old.start, count: old.count)
                return
            }
            bytes.removeSubrange(old.start...)
            fields.removeSubrange(index...)
        }
        guard bytes.count + line.count <= Self.maxBytes, fields.count < Self.maxFields else { return }
        if bytes.capacity == 0 { bytes.reserveCapacity(256) }
        fields.append(Field(name: name, value: value, valueRange: valueRange, kind: kind, start: bytes.count, count: line.count))
        bytes.append(contentsOf: line)
    }
}
