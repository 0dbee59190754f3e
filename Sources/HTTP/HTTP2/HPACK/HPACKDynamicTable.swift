// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// The dynamic table of RFC 7541 §2.3.2 and §4: newest entry first, evicted oldest first once the
/// entries' size (name + value + 32 bytes each, §4.1) would pass `maximumSize`.
struct HPACKDynamicTable: Sendable {
    struct Entry: Sendable {
        let name: String
        let value: String
        /// A decoder's note: the name and value pass HTTP/2's field checks (RFC 9113 §8.2.1,
        /// `HTTP2FieldRules`), so a block naming the entry again is not checked
        /// again. An encoder's entries say false.
        let checked: Bool
        /// A decoder's entry inserted by `HPACKDecoder.decodeBytes`: the name's UTF-8 then the
        /// value's, as the `String`s hold them, copied from here into a block's bytes; nil otherwise.
        let bytes: [UInt8]?
        /// Where the name ends in `bytes`: read per copy, the name's UTF-8 count was counted again.
        let nameCount: Int
        /// Where `bytes` lie, and their count (nil without bytes): copied from there without a
        /// retain and release of the array per copy (about 45 instructions a dynamic-table copy,
        /// three of a demo avatar answer's block: Benchmarks/README.md). The array is this entry's
        /// own and never changes, so its storage, and this address, last as long as the entry.
        nonisolated(unsafe) let bytesBase: UnsafePointer<UInt8>?
        let bytesCount: Int

        init(name: String, value: String, checked: Bool, bytes: [UInt8]? = nil, nameCount: Int = 0) {
            self.name = name
            self.value = value
            self.checked = checked
            self.bytes = bytes
            self.nameCount = nameCount
            if let bytes, !bytes.isEmpty {
                bytesBase = bytes.withUnsafeBufferPointer { $0.baseAddress }
                bytesCount = bytes.count
            } else {
                bytesBase = nil
                bytesCount = 0
            }
        }
    }

    /// Oldest first, so an insertion appends and an eviction drops from the front.
    private var entries: [Entry] = []
    private var evicted = 0
    private(set) var size = 0
    private(set) var maximumSize: Int

    init(maximumSize: Int) {
        self.maximumSize = maximumSize
    }

    var count: Int { entries.count - evicted }

    static func entrySize(name: String, value: String) -> Int { name.utf8.count + value.utf8.count + 32 }

    /// Entry `index`, 1 being the newest.
    subscript(index: Int) -> Entry? {
        guard index >= 1, index <= count else { return nil }
        return entries[entries.count - index]
    }

    /// Entry `index` (1 the newest) where it lies, or nil past the table.
    func withEntry<Result>(_ index: Int, _ body: (UnsafePointer<Entry>) throws(HPACKError) -> Result) throws(HPACKError) -> Result? {
        guard index >= 1, index <= count else { return nil }
        let at = entries.count - index
        return try entries.withUnsafeBufferPointer { (entries) throws(HPACKError) -> Result in try body(entries.baseAddress! + at) }
    }

    /// Adds an entry, evicting what it needs; one larger than the whole table empties it (§4.4).
    mutating func insert(name: String, value: String, checked: Bool = false, keepingBytes: Bool = false) {
        let entrySize = Self.entrySize(name: name, value: value)
        evict(toFit: maximumSize - entrySize)
        guard entrySize <= maximumSize else { return }
        entries.append(Entry(name: name, value: value, checked: checked, bytes: keepingBytes ? Array(name.utf8) + Array(value.utf8) : nil,
                             nameCount: name.utf8.count))
        size += entrySize
    }

    mutating func resize(to newMaximum: Int) {
        maximumSize = newMaximum
        evict(toFit: newMaximum)
    }

    /// For an encoder: the newest index holding `name` and `value`, and the newest holding `name`.
    func find(name: String, value: String) -> (pair: Int?, name: Int?) {
        var nameMatch: Int?
        for index in 1...max(count, 1) where index <= count {
            let entry = entries[entries.count - index]
            guard entry.name == name else { continue }
            if entry.value == value { return (index, index) }
            if nameMatch == nil { nameMatch = index }
        }
        return (nil, nameMatch)
    }

    private mutating func evict(toFit limit: Int) {
        while size > max(limit, 0), count > 0 {
            let oldest = entries[evicted]
            size -= Self.entrySize(name: oldest.name, value: oldest.value)
            evicted += 1
        }
        if size == 0 || evicted > 64 {
            // Compacted now and then, not per eviction: dropping the front moves every entry.
            entries.removeFirst(evicted)
            evicted = 0
        }
    }
}
