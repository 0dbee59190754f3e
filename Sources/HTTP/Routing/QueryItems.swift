// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore

/// Percent-decoded `name=value` pairs of a request target's query, in order.
public struct QueryItems: Sendable, Equatable, Sequence {
    /// One parameter: its decoded name and value (empty for a bare `flag`).
    public typealias Item = (name: String, value: String)

    private var items: [Item]

    /// These pairs, in order.
    public init(_ items: [(String, String)] = []) {
        self.items = items.map { (name: $0.0, value: $0.1) }
    }

    /// Parses `a=1&b=x%20y&flag` (`+` decodes to a space, as in HTML forms; empty pairs are skipped).
    ///
    /// One scan of the bytes, without an array of pieces: `split` and index arithmetic on
    /// `Substring` made an array and indices per piece for a query of one item.
    public init(parsing query: Substring) {
        var parsed: [Item] = []
        let utf8 = query.utf8
        var start = utf8.startIndex
        while start < utf8.endIndex {
            var end = start
            var equals: String.Index?
            while end < utf8.endIndex {
                let byte = utf8[end]
                if byte == UInt8(ascii: "&") { break }
                if byte == UInt8(ascii: "="), equals == nil { equals = end }
                end = utf8.index(after: end)
            }
            if end > start {
                if let equals {
                    parsed.append((PercentEncoding.decode(query[start..<equals]), PercentEncoding.decode(query[utf8.index(after: equals)..<end])))
                } else {
                    parsed.append((PercentEncoding.decode(query[start..<end]), ""))
                }
            }
            start = end < utf8.endIndex ? utf8.index(after: end) : end
        }
        items = parsed
    }

    /// The first value for `name`, or nil.
    public subscript(name: String) -> String? {
        items.first { $0.name == name }?.value
    }

    /// Every value for `name`, in order.
    public func values(for name: String) -> [String] {
        items.compactMap { $0.name == name ? $0.value : nil }
    }

    /// The number of pairs, repeats counted.
    public var count: Int { items.count }
    /// True when the query had no pair.
    public var isEmpty: Bool { items.isEmpty }

    /// The pairs in the order they came.
    public func makeIterator() -> IndexingIterator<[Item]> { items.makeIterator() }

    /// Equal when the same pairs come in the same order.
    public static func == (lhs: QueryItems, rhs: QueryItems) -> Bool {
        lhs.items.count == rhs.items.count && zip(lhs.items, rhs.items).allSatisfy { $0 == $1 }
    }
}
