// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Turns header blocks into field lists (RFC 7541 §6), keeping the dynamic table in step with the
/// peer's encoder. One per connection and direction; blocks must be decoded in the order they arrived.
package struct HPACKDecoder: Sendable {
    /// A decoded block: its fields, or, when they pass `maxHeaderListSize`, none and `overListSize`.
    package struct Block: Sendable {
        package var fields: [(name: String, value: String)]
        /// Bit `i` set: field `i` (of the first 64) passes HTTP/2's field checks (RFC 9113 §8.2.1,
        /// `HTTP2FieldRules`), so its head need not check it: known for a field from
        /// the static table or from a dynamic-table entry checked when it was inserted, checked here
        /// for a literal. A clear bit says nothing: the head checks that field, and says what is wrong.
        package var checkedFields: UInt64 = 0
        /// The list was larger than allowed: its fields were decoded (the table stays in step) but not kept.
        package var overListSize: Bool
    }

    /// The table size this side's SETTINGS_HEADER_TABLE_SIZE allows; updates above it are errors.
    package private(set) var maxTableSizeLimit: Int
    /// The limit on a decoded list (names + values + 32 per field, RFC 9113 §6.5.2): a small block
    /// that names a large table entry again and again (an "HPACK bomb") stops counting here.
    package var maxHeaderListSize: Int
    /// The longest string accepted, before Huffman decoding.
    package var maxStringLength: Int
    private var table: HPACKDynamicTable

    package init(maxTableSize: Int = 4096, maxHeaderListSize: Int = 64 * 1024, maxStringLength: Int = 64 * 1024) {
        maxTableSizeLimit = maxTableSize
        self.maxHeaderListSize = maxHeaderListSize
        self.maxStringLength = maxStringLength
        table = HPACKDynamicTable(maximumSize: maxTableSize)
    }

    /// The dynamic table's current size and limit, for tests.
    package var dynamicTableSize: Int { table.size }
    package var dynamicTableCount: Int { table.count }

    package mutating func decode(_ block: [UInt8]) throws(HPACKError) -> Block {
        try block.withUnsafeBufferPointer { (bytes) throws(HPACKError) -> Block in try decode(bytes) }
    }

    package mutating func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws(HPACKError) -> Block {
        var fields: [(name: String, value: String)] = []
        // Room for a typical answer's fields (7 to 15; each takes a byte at least): grown from
        // empty, the list was reallocated four times a block.
        fields.reserveCapacity(min(bytes.count, 16))
        var checkedFields: UInt64 = 0
        var listSize = 0
        var overListSize = false
        var position = 0
        var fieldSeen = false
        while position < bytes.count {
            let first = bytes[position]
            let field: HPACKDynamicTable.Entry
            if first & 0x80 != 0 {
                // Indexed field (§6.1).
                let index = try HPACKInteger.decode(bytes, at: &position, prefixBits: 7)
                field = try entry(index)
            } else if first & 0xC0 == 0x40 {
                // Literal with incremental indexing (§6.2.1).
                field = try literal(bytes, at: &position, prefixBits: 6)
                table.insert(name: field.name, value: field.value, checked: field.checked)
            } else if first & 0xE0 == 0x20 {
                // Dynamic table size update (§6.3): only before the block's first field (§4.2).
                guard !fieldSeen else { throw .tableSizeUpdateAfterField }
                let size = try HPACKInteger.decode(bytes, at: &position, prefixBits: 5)
                guard size <= maxTableSizeLimit else { throw .invalidTableSizeUpdate(size) }
                table.resize(to: size)
                continue
            } else {
                // Literal without indexing (0000) or never indexed (0001) (§6.2.2, §6.2.3).
                field = try literal(bytes, at: &position, prefixBits: 4)
            }
            fieldSeen = true
            listSize += field.name.utf8.count + field.value.utf8.count + 32
            if listSize > maxHeaderListSize {
                overListSize = true
                fields.removeAll()
                checkedFields = 0
            }
            if !overListSize {
                if field.checked && fields.count < 64 { checkedFields |= 1 << UInt64(fields.count) }
                fields.append((field.name, field.value))
            }
        }
        return Block(fields: fields, checkedFields: checkedFields, overListSize: overListSize)
    }

    /// This side's SETTINGS_HEADER_TABLE_SIZE changed (and the peer acknowledged it).
    package mutating func setMaxTableSizeLimit(_ limit: Int) {
        maxTableSizeLimit = limit
        if table.maximumSize > limit { table.resize(to: limit) }
    }

    /// Entry `index` of the static table (whose fields all pass the checks: HPACKDecoderTests) or the dynamic one.
    private func entry(_ index: Int) throws(HPACKError) -> HPACKDynamicTable.Entry {
        let staticCount = HPACKStaticTable.entries.count
        if index >= 1 && index <= staticCount {
            let entry = HPACKStaticTable.entries[index - 1]
            return HPACKDynamicTable.Entry(name: entry.name, value: entry.value, checked: true)
        }
        guard let entry = table[index - staticCount] else { throw .invalidIndex(index) }
        return entry
    }

    /// A literal field, checked: its name only when it is new (a table's name was checked with its entry).
    private func literal(_ bytes: UnsafeBufferPointer<UInt8>, at position: inout Int, prefixBits: Int) throws(HPACKError) -> HPACKDynamicTable.Entry {
        let nameIndex = try HPACKInteger.decode(bytes, at: &position, prefixBits: prefixBits)
        let name: String
        let nameChecked: Bool
        if nameIndex == 0 {
            name = try string(bytes, at: &position)
            nameChecked = HTTP2FieldRules.isValidName(name)
        } else {
            let entry = try entry(nameIndex)
            name = entry.name
            nameChecked = entry.checked || HTTP2FieldRules.isValidName(name)
        }
        let value = try string(bytes, at: &position)
        return HPACKDynamicTable.Entry(name: name, value: value, checked: nameChecked && HTTP2FieldRules.isValidValue(value))
    }

    private func string(_ bytes: UnsafeBufferPointer<UInt8>, at position: inout Int) throws(HPACKError) -> String {
        guard position < bytes.count else { throw .truncated }
        let huffman = bytes[position] & 0x80 != 0
        let length = try HPACKInteger.decode(bytes, at: &position, prefixBits: 7)
        guard length <= maxStringLength else { throw .stringTooLong(length) }
        guard length <= bytes.count - position else { throw .truncated }
        let raw = UnsafeBufferPointer(rebasing: bytes[position..<(position + length)])
        position += length
        guard huffman else { return String(decoding: raw, as: UTF8.self) }
        return try HPACKHuffman.decodeString(raw)
    }
}
