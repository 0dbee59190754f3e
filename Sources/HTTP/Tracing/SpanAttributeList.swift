// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Tracing

/// A span's attributes as this service's spans build them: one list in the order set, handed to
/// the span whole. A `SpanAttributes` dictionary hashes every key on the way in and again on the
/// way out, and the span API copies it out and back per change; a tracer whose spans take the
/// list (`SpanAttributeListTaking`) keeps it and its exporter writes it as it is. Any other span gets
/// it merged into its `attributes` (the slow twin; the tests hold the two exports equal).
public struct SpanAttributeList: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    /// The attributes in the order set, each key once.
    public private(set) var entries: [(key: String, value: SpanAttribute)] = []

    /// An empty list.
    public init() {}

    /// An empty list with room for `capacity` attributes.
    public init(capacity: Int) {
        entries.reserveCapacity(capacity)
    }

    /// The attributes of a literal, in its order.
    public init(dictionaryLiteral elements: (String, SpanAttribute)...) {
        entries.reserveCapacity(elements.count)
        for (key, value) in elements { set(key, value) }
    }

    public var isEmpty: Bool { entries.isEmpty }
    public var count: Int { entries.count }

    /// Adds `key`, which the list does not hold yet (a span building its list sets each key once:
    /// no search).
    public mutating func append(_ key: String, _ value: SpanAttribute) {
        assert(!entries.contains { $0.key == key }, "\(key) is in the list already")
        entries.append((key, value))
    }

    /// Sets `key` to `value`, in its place when the list holds it already.
    public mutating func set(_ key: String, _ value: SpanAttribute) {
        if let index = entries.firstIndex(where: { $0.key == key }) {
            entries[index].value = value
        } else {
            entries.append((key, value))
        }
    }

    /// The value of `key`, if set.
    public subscript(key: String) -> SpanAttribute? {
        entries.first { $0.key == key }?.value
    }

    /// The same attributes as the span API's dictionary.
    public var attributes: SpanAttributes {
        var attributes = SpanAttributes()
        for (key, value) in entries { attributes.set(key, value: value) }
        return attributes
    }

    /// Adds these attributes to `span` (a key it holds already takes the list's value): whole,
    /// when `taker` (the tracer of `span`, asked once by its owner) keeps lists; else through
    /// the span's `attributes`.
    public func add(to span: any Span, taker: (any SpanAttributeListTaking)?) {
        if let taker, taker.addAttributes(self, to: span) { return }
        span.updateAttributes { attributes in
            for (key, value) in entries { attributes.set(key, value: value) }
        }
    }

    public static func == (lhs: SpanAttributeList, rhs: SpanAttributeList) -> Bool {
        lhs.entries.count == rhs.entries.count && zip(lhs.entries, rhs.entries).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}

/// A tracer whose spans take a `SpanAttributeList` as it is, without a `SpanAttributes`
/// dictionary. Asked of the tracer once (a conformance check per span cost about 900
/// instructions), then of each span by its concrete type.
public protocol SpanAttributeListTaking: Sendable {
    /// Adds `list`'s attributes to `span` when it is one of this tracer's spans (a key it holds
    /// already takes the list's value); false, doing nothing, for any other span.
    func addAttributes(_ list: SpanAttributeList, to span: any Span) -> Bool
}
