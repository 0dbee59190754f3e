// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// A value that writes itself as JSON straight into bytes (`JSONOutput`), the same bytes
/// Foundation's `JSONEncoder` gives with `[.sortedKeys, .withoutEscapingSlashes]`.
///
/// For answers on a hot path: `JSONEncoder` builds a tree of boxed values, sorts every
/// object's keys and then writes it; writing the fields in order skips the tree, the boxes and
/// the sort (the figure: Benchmarks/README.md). A
/// conforming type writes its keys in sorted order itself, and a test holds its bytes to
/// `JSONEncoder`'s: the type keeps its `Encodable` conformance as the reference.
///
/// ```swift
/// extension Point: JSONWritable {
///     func writeJSON(to json: inout JSONOutput) {
///         json.object { json in
///             json.field("x", x)
///             json.field("y", y)
///         }
///     }
/// }
/// let bytes = JSONOutput.encode(Point(x: 1, y: 2))   // {"x":1,"y":2}
/// ```
public protocol JSONWritable {
    func writeJSON(to json: inout JSONOutput)
}

extension String: JSONWritable {
    public func writeJSON(to json: inout JSONOutput) { json.string(self) }
}

extension Int: JSONWritable {
    public func writeJSON(to json: inout JSONOutput) { json.int(self) }
}

extension Bool: JSONWritable {
    public func writeJSON(to json: inout JSONOutput) { json.bool(self) }
}

extension Optional: JSONWritable where Wrapped: JSONWritable {
    /// `null` for nil, as `JSONEncoder` writes an optional encoded with `encode(_:forKey:)`.
    @inlinable
    public func writeJSON(to json: inout JSONOutput) {
        if let value = self { value.writeJSON(to: &json) } else { json.null() }
    }
}

extension Array: JSONWritable where Element: JSONWritable {
    @inlinable
    public func writeJSON(to json: inout JSONOutput) {
        json.array(self)
    }
}
