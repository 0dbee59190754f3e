// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// An ordered list of header fields with case-insensitive name lookup.
///
/// Order and duplicates are preserved because both matter on the wire
/// (e.g. several `Set-Cookie` fields); lookups compare names ASCII
/// case-insensitively without allocating.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// One header field: its name as sent (case kept) and its value.
    public typealias Field = (name: String, value: String)

    private var storage: [Field] = []

    /// An empty list.
    public init() {}

    /// The fields in this order, duplicates kept.
    public init(_ fields: [(String, String)]) {
        // Room for the fields a writer and the middlewares add (`Cache-Control`, `Vary`, …) without regrowing.
        storage.reserveCapacity(fields.count + 2)
        for (name, value) in fields { storage.append((name: name, value: value)) }
    }

    /// These fields, in this order, the array itself kept as the list: an HTTP/2 head's decoded
    /// fields become its answer's list without a copy.
    init(adopting fields: consuming [Field]) {
        storage = fields
    }

    /// An empty list with room for `capacity` fields: a parsed request's fields in one allocation.
    init(reservingCapacity capacity: Int) {
        storage.reserveCapacity(capacity)
    }

    /// The fields of a literal, in its order: `["Content-Type": "text/plain"]`.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The number of fields, duplicates counted.
    public var count: Int { storage.count }
    /// True when there is no field.
    public var isEmpty: Bool { storage.isEmpty }

    /// The first value for `name`, or nil.
    public subscript(name: String) -> String? {
        get { storage.first { Self.sameName($0.name, name) }?.value }
        set {
            if let newValue { replaceOrAdd(name: name, value: newValue) } else { remove(name: name) }
        }
    }

    /// Every value for `name`, in order.
    public func values(for name: String) -> [String] {
        storage.compactMap { Self.sameName($0.name, name) ? $0.value : nil }
    }

    /// True when a field has this name (compared case-insensitively).
    public func contains(_ name: String) -> Bool {
        storage.contains { Self.sameName($0.name, name) }
    }

    /// Appends a field, keeping any other of the same name (`Set-Cookie`, `Vary`).
    public mutating func add(name: String, value: String) {
        storage.append((name: name, value: value))
    }

    /// Removes every field of this name, then appends this one.
    public mutating func replaceOrAdd(name: String, value: String) {
        // A list with no storage yet (an upstream attempt's extra fields, where `traceparent` is
        // often the only one) made with its one field at its size: searched, then grown from
        // nothing, it cost about 300 instructions more a CLIENT span.
        if storage.capacity == 0 {
            storage = [(name: name, value: value)]
            return
        }
        // Rewritten only when it holds the name: `removeAll` rebuilt even a list without it
        // (about 180 instructions for each `traceparent` sent upstream).
        if storage.contains(where: { Self.sameName($0.name, name) }) { remove(name: name) }
        storage.append((name: name, value: value))
    }

    /// Removes every field of this name.
    public mutating func remove(name: String) {
        storage.removeAll { Self.sameName($0.name, name) }
    }

    /// True when any comma-separated element of any `name` field equals `token`
    /// (case-insensitive), e.g. `Connection: keep-alive, Upgrade`.
    public func containsToken(_ token: String, in name: String) -> Bool {
        // Asked of every request (`Connection`): no array of values, no split.
        for field in storage where Self.sameName(field.name, name) {
            var rest = Substring(field.value)
            while true {
                let comma = rest.utf8.firstIndex(of: UInt8(ascii: ","))
                if Self.sameName(rest[..<(comma ?? rest.endIndex)].trimmingSpaces, token) { return true }
                guard let comma else { break }
                rest = rest[rest.utf8.index(after: comma)...]
            }
        }
        return false
    }

    /// The fields where they lie, for a reader that only looks: iterating copies (retains) each
    /// name and value, a retain and a release each.
    package func withFields<Result>(_ body: (UnsafeBufferPointer<Field>) -> Result) -> Result {
        storage.withUnsafeBufferPointer(body)
    }

    /// The fields in order, as sent or added.
    public func makeIterator() -> IndexingIterator<[Field]> {
        storage.makeIterator()
    }

    /// Equal when the same fields come in the same order, names compared as written.
    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        guard lhs.storage.count == rhs.storage.count else { return false }
        // One list shared by both (an upstream client's fields, request after request, compared by
        // `RequestFieldsCache` per exchange): equal without comparing its pairs.
        let shared = lhs.storage.withUnsafeBufferPointer { l in rhs.storage.withUnsafeBufferPointer { r in l.baseAddress == r.baseAddress } }
        return shared || zip(lhs.storage, rhs.storage).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }

    /// The common case, two `String`s: most names differ in length, and a name spelled as asked
    /// (`Host` for `Host`) is one comparison of the strings' representations.
    @inline(__always)
    package static func sameName(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        return a == b || sameNameIgnoringCase(a, b)
    }

    private static func sameNameIgnoringCase(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { x in b.withUTF8 { y in sameBytes(x, y) } }
    }

    package static func sameName<A: StringProtocol, B: StringProtocol>(_ a: A, _ b: B) -> Bool {
        let x = a.utf8, y = b.utf8
        guard x.count == y.count else { return false }
        // Native strings (small ones too) lend their bytes: a plain loop over two buffers, where
        // zipping the two UTF8Views cost an index step and a bounds check per byte.
        if let same = x.withContiguousStorageIfAvailable({ p in y.withContiguousStorageIfAvailable { q in sameBytes(p, q) } }),
           let same {
            return same
        }
        for (p, q) in zip(x, y) where !sameByte(p, q) { return false }
        return true
    }

    /// Two names' bytes of the same count, ASCII letters in any case (`ReceivedFields` compares in place too).
    static func sameBytes(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Bool {
        for index in 0..<x.count where !sameByte(x[index], y[index]) { return false }
        return true
    }

    @inline(__always)
    private static func sameByte(_ p: UInt8, _ q: UInt8) -> Bool {
        // ASCII letters differ only in bit 0x20; everything else must match exactly.
        p == q || (p | 0x20 == q | 0x20 && (p | 0x20) >= 0x61 && (p | 0x20) <= 0x7A)
    }
}
