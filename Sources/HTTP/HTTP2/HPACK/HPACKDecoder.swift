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
    /// `decodeBytes`' room for a block's bytes and spans, kept from block to block (empty for a
    /// server's decoder, which decodes into `String`s).
    private var room: [UInt8] = []
    private var spans: [UInt32] = []
    /// `decodeBytes`' memo of the previous blocks' Huffman-coded literals (`memoizesLiterals`):
    /// a client's decoder, whose peer's answers repeat them. A copy of the decoder shares it, which
    /// is sound: what it holds is what the coded bytes decode to, whoever decoded them.
    private let literals: HPACKLiteralMemo?
    /// `literals.slots`, held here as well: read per literal without retaining the memo. Unsafe as
    /// the memo is: one decoder's, on its connection's loop.
    nonisolated(unsafe) private let literalSlots: UnsafeMutableRawPointer?

    package init(maxTableSize: Int = 4096, maxHeaderListSize: Int = 64 * 1024, maxStringLength: Int = 64 * 1024, memoizesLiterals: Bool = false) {
        literals = memoizesLiterals ? HPACKLiteralMemo() : nil
        literalSlots = literals?.slots
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

    /// `decode(_:)` into bytes (`HPACKFieldBytes`): literals written (Huffman-decoded) straight into
    /// one buffer, table entries copied there from their bytes, and no `String` made but for an
    /// entry the table keeps. The client's answers become `ReceivedFields` this way, as HTTP/1.1
    /// heads do. The same fields, checks, list verdict and table as `decode(_:)`, its slow twin
    /// (HPACKDecoderTests, HPACKDecoderBytesTests, and the HPACK fuzz target compares the two);
    /// invalid UTF-8 in a literal is kept as received, where the twin's `String`s repair it (as
    /// `ReceivedFields` repairs it when read), and counted in the list size as repaired, as the twin counts it.
    package mutating func decodeBytes(_ bytes: UnsafeBufferPointer<UInt8>) throws(HPACKError) -> HPACKFieldBytes {
        // The room, taken out of `self` while written, so that the table can change meanwhile.
        var room: [UInt8] = [], spans: [UInt32] = []
        swap(&room, &self.room)
        swap(&spans, &self.spans)
        defer {
            // A large block's room is not kept: a hostile peer could otherwise pin it on every connection.
            if room.count <= Self.keptRoom { swap(&room, &self.room) }
            swap(&spans, &self.spans)
        }
        var cursor = Cursor()
        while true {
            let need = try room.withUnsafeMutableBufferPointer { (out) throws(HPACKError) -> Need in
                try spans.withUnsafeMutableBufferPointer { (spanOut) throws(HPACKError) -> Need in
                    try decodeFields(bytes, into: out, spans: spanOut, &cursor)
                }
            }
            switch need {
            case .nothing:
                let used = cursor.used, spanCount = cursor.count * 4
                // The spans and the trailer laid out after the bytes, in the room's slack (a
                // field's bound leaves at least the table's size and 64 bytes; grown if not).
                let size = HPACKFieldBytes.layoutSize(byteCount: used, spanCount: spanCount)
                if size > room.count { room.append(contentsOf: repeatElement(0, count: size - room.count)) }
                let storage = room.withUnsafeMutableBytes { room in
                    spans.withUnsafeBufferPointer { spans in
                        HPACKFieldBytes.storage(laidOutAfter: used, in: room, spans: UnsafeBufferPointer(rebasing: spans[..<spanCount]))
                    }
                }
                return HPACKFieldBytes(storage: storage, checkedFields: cursor.checkedFields, overListSize: cursor.overListSize)
            case .bytes(let count):
                room.append(contentsOf: repeatElement(0, count: max(count - room.count, room.count)))
            case .spans:
                spans.append(contentsOf: repeatElement(0, count: max(spans.count, 4 * 16)))
            }
        }
    }

    /// Room kept from one block to the next; more is given back after the block.
    private static let keptRoom = 16 * 1024

    /// Where `decodeFields` is in a block, kept across its calls (it returns when it needs room).
    private struct Cursor {
        var position = 0
        var used = 0
        var count = 0
        var listSize = 0
        var checkedFields: UInt64 = 0
        var overListSize = false
        var fieldSeen = false
        /// Fields decoded so far, kept or not: a literal's place for `literals`.
        var ordinal = 0
    }

    private enum Need { case nothing, bytes(Int), spans }

    /// Decodes fields into `out` and their spans into `spans` until the block ends (`.nothing`) or
    /// the next field may not fit (what it needs).
    private mutating func decodeFields(
        _ bytes: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>, spans: UnsafeMutableBufferPointer<UInt32>,
        _ cursor: inout Cursor
    ) throws(HPACKError) -> Need {
        while cursor.position < bytes.count {
            // A field's bytes: a table entry (at most the table's size) and literals (each at most
            // 8/5 of its coded length, plus a byte the Huffman decoder may write past). Wrapping
            // arithmetic, here and in the field's counts below: every term is bounded by the block's
            // and the table's sizes, far from overflow, and the checked operations' overflow tests
            // cost about 40 instructions a field (Benchmarks/README.md).
            let bound = cursor.used &+ 2 &* (bytes.count &- cursor.position) &+ table.maximumSize &+ 64
            if bound > out.count { return .bytes(bound) }
            if (cursor.count &+ 1) &* 4 > spans.count { return .spans }
            let base = out.baseAddress!
            let first = bytes[cursor.position]
            let start = cursor.used
            let nameEnd: Int
            let checked: Bool
            var listed: Int
            if first & 0x80 != 0 {
                // Indexed field (§6.1).
                let index = try HPACKInteger.decode(bytes, at: &cursor.position, prefixBits: 7)
                (nameEnd, checked) = try copyEntry(index, nameOnly: false, to: base, at: &cursor.used)
                listed = cursor.used &- start
            } else if first & 0xE0 == 0x20 {
                // Dynamic table size update (§6.3): only before the block's first field (§4.2).
                guard !cursor.fieldSeen else { throw .tableSizeUpdateAfterField }
                let size = try HPACKInteger.decode(bytes, at: &cursor.position, prefixBits: 5)
                guard size <= maxTableSizeLimit else { throw .invalidTableSizeUpdate(size) }
                table.resize(to: size)
                continue
            } else {
                // Literal with incremental indexing (§6.2.1), without indexing (0000) or never indexed (0001) (§6.2.2, §6.2.3).
                let indexes = first & 0xC0 == 0x40
                let nameIndex = try HPACKInteger.decode(bytes, at: &cursor.position, prefixBits: indexes ? 6 : 4)
                var nameChecked: Bool
                if nameIndex == 0 {
                    let slot = HPACKLiteralMemo.slot(ordinal: cursor.ordinal, value: false)
                    let (_, verdict) = try string(bytes, at: &cursor.position, into: base, at: &cursor.used, slot: slot)
                    let name = UnsafeBufferPointer(start: base + start, count: cursor.used &- start)
                    switch verdict {
                    case .valid?: nameChecked = true
                    case .invalid?: nameChecked = false
                    case .unknown?:
                        nameChecked = HTTP2FieldRules.nameFault(name) == nil
                        // Kept with the literal the slot now holds (a slot left empty ignores it).
                        if let slot, let literalSlots { HPACKLiteralMemo.noteVerdict(literalSlots, slot, valid: nameChecked) }
                    case nil:
                        nameChecked = HTTP2FieldRules.nameFault(name) == nil
                    }
                    listed = Self.listedCount(name)
                } else {
                    (_, nameChecked) = try copyEntry(nameIndex, nameOnly: true, to: base, at: &cursor.used)
                    if !nameChecked { nameChecked = HTTP2FieldRules.nameFault(UnsafeBufferPointer(start: base + start, count: cursor.used &- start)) == nil }
                    listed = cursor.used &- start
                }
                nameEnd = cursor.used
                let (notes, _) = try string(bytes, at: &cursor.position, into: base, at: &cursor.used,
                                            slot: HPACKLiteralMemo.slot(ordinal: cursor.ordinal, value: true))
                let value = UnsafeBufferPointer(start: base + nameEnd, count: cursor.used &- nameEnd)
                if let notes {
                    // Huffman-coded: the machine noted what the bytes hold; only their ends are looked at.
                    let valid = notes.forbidden ? HTTP2FieldRules.valueFault(value) == nil : !Self.hasWhitespaceAtAnEnd(value)
                    checked = nameChecked && valid
                    listed &+= notes.high ? Self.listedCount(value) : value.count
                } else {
                    checked = nameChecked && HTTP2FieldRules.valueFault(value) == nil
                    listed &+= Self.listedCount(value)
                }
                if indexes {
                    let name = String(decoding: UnsafeBufferPointer(start: base + start, count: nameEnd - start), as: UTF8.self)
                    table.insert(name: name, value: String(decoding: value, as: UTF8.self), checked: checked, keepingBytes: true)
                }
            }
            cursor.fieldSeen = true
            cursor.ordinal &+= 1
            cursor.listSize &+= listed &+ 32
            if cursor.overListSize {
                cursor.used = start
            } else if cursor.listSize > maxHeaderListSize {
                // Decoded on (the table stays in step), kept no more.
                cursor.overListSize = true
                cursor.used = 0
                cursor.count = 0
                cursor.checkedFields = 0
            } else {
                if checked && cursor.count < 64 { cursor.checkedFields |= 1 &<< UInt64(truncatingIfNeeded: cursor.count) }
                let span = spans.baseAddress! + cursor.count &* 4
                span[0] = UInt32(truncatingIfNeeded: start)
                span[1] = UInt32(truncatingIfNeeded: nameEnd)
                span[2] = UInt32(truncatingIfNeeded: nameEnd)
                span[3] = UInt32(truncatingIfNeeded: cursor.used)
                cursor.count &+= 1
            }
        }
        return .nothing
    }

    /// Copies entry `index`'s name (and value, unless `nameOnly`) to `out` at `used`: from the
    /// static table's bytes, or a dynamic entry's (its `String`s' for one the slow twin inserted).
    /// Returns where the name ended and whether the entry passes the checks.
    private func copyEntry(_ index: Int, nameOnly: Bool, to out: UnsafeMutablePointer<UInt8>, at used: inout Int) throws(HPACKError) -> (nameEnd: Int, checked: Bool) {
        let staticCount = HPACKStaticTable.entries.count
        if index >= 1 && index <= staticCount {
            let table = HPACKStaticTable.rawBytes
            // Wrapping: offsets within the static table's few hundred bytes, `used` within the room.
            let start = table.starts[index &- 1], nameEnd = table.nameEnds[index &- 1], end = nameOnly ? nameEnd : table.starts[index]
            (out + used).update(from: table.bytes + start, count: end &- start)
            used &+= end &- start
            return (used &- (end &- nameEnd), true)
        }
        let copied = try table.withEntry(index - staticCount) { (entry) throws(HPACKError) -> (nameEnd: Int, checked: Bool) in
            // Read where the entry lies: bound to a local (`if let`), its bytes were retained and
            // released per copy, and the name's length counted again (about 35 instructions a
            // block of half a dozen such copies: Benchmarks/README.md); through `withUnsafeBufferPointer`
            // the array was still retained and released per copy (`Entry.bytesBase`).
            if let bytes = entry.pointee.bytesBase {
                let nameCount = entry.pointee.nameCount
                let count = nameOnly ? nameCount : entry.pointee.bytesCount
                (out + used).update(from: bytes, count: count)
                used &+= count
                return (used &- (count &- nameCount), entry.pointee.checked)
            }
            Self.copy(entry.pointee.name, to: out, at: &used)
            let nameEnd = used
            if !nameOnly { Self.copy(entry.pointee.value, to: out, at: &used) }
            return (nameEnd, entry.pointee.checked)
        }
        guard let copied else { throw .invalidIndex(index) }
        return copied
    }

    private static func copy(_ string: String, to out: UnsafeMutablePointer<UInt8>, at used: inout Int) {
        HTTP2FieldRules.withBytes(of: string) { bytes in
            if let base = bytes.baseAddress { (out + used).update(from: base, count: bytes.count) }
            used += bytes.count
        }
    }

    /// `HTTP2FieldRules.valueFault`'s whitespace rule alone, for a value known to hold no NUL, CR or LF.
    @inline(__always)
    private static func hasWhitespaceAtAnEnd(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = value.first, let last = value.last else { return false }
        return first == 0x20 || first == 0x09 || last == 0x20 || last == 0x09
    }

    /// A literal string (Huffman-decoded if coded) to `out` at `used`; for a coded one, the
    /// machine's notes of what it wrote. Through `slot` of `literals` (a coded one): the name
    /// verdict kept there when it stood there with the same bytes (copied, not decoded again), or
    /// `.unknown` once it is kept there; nil when the slot is not this literal's.
    private func string(
        _ bytes: UnsafeBufferPointer<UInt8>, at position: inout Int, into out: UnsafeMutablePointer<UInt8>, at used: inout Int, slot: Int?
    ) throws(HPACKError) -> (notes: HPACKHuffman.Notes?, verdict: HPACKLiteralMemo.NameVerdict?) {
        let (raw, huffman) = try stringBytes(bytes, at: &position)
        let length = raw.count
        if huffman {
            if let slot, let literalSlots, let kept = HPACKLiteralMemo.copy(literalSlots, slot, coded: raw, to: out + used) {
                used &+= kept.count
                return (kept.notes, kept.verdict)
            }
            let (count, notes) = try HPACKHuffman.decodeNoting(raw, into: UnsafeMutableBufferPointer(start: out + used, count: HPACKHuffman.decodedCapacity(length)))
            var verdict: HPACKLiteralMemo.NameVerdict?
            if let slot, let literalSlots,
               HPACKLiteralMemo.store(literalSlots, slot, coded: raw, decoded: UnsafeBufferPointer(start: out + used, count: count), notes: notes) {
                verdict = .unknown
            }
            used &+= count
            return (notes, verdict)
        }
        if length > 0 {
            (out + used).update(from: raw.baseAddress!, count: length)
            used &+= length
        }
        return (nil, nil)
    }

    /// The UTF-8 count of `bytes` as a `String` makes them (what the slow twin counts in the list
    /// size): their count when they are ASCII, eight checked at a time.
    private static func listedCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let raw = UnsafeRawBufferPointer(bytes)
        var index = 0
        var high: UInt64 = 0
        while index + 8 <= raw.count {
            high |= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            index += 8
        }
        while index < raw.count {
            high |= UInt64(raw[index])
            index += 1
        }
        guard high & 0x8080_8080_8080_8080 != 0 else { return bytes.count }
        return String(decoding: bytes, as: UTF8.self).utf8.count
    }

    /// A string literal's coded bytes (§5.2) where they lie, and whether they are Huffman-coded.
    @inline(__always)
    private func stringBytes(_ bytes: UnsafeBufferPointer<UInt8>, at position: inout Int) throws(HPACKError) -> (raw: UnsafeBufferPointer<UInt8>, huffman: Bool) {
        guard position < bytes.count else { throw .truncated }
        let huffman = bytes[position] & 0x80 != 0
        let length = try HPACKInteger.decode(bytes, at: &position, prefixBits: 7)
        guard length <= maxStringLength else { throw .stringTooLong(length) }
        // Wrapping: `position` is within the block, and `length` no more than what is left of it.
        guard length <= bytes.count &- position else { throw .truncated }
        let raw = UnsafeBufferPointer(start: bytes.baseAddress.unsafelyUnwrapped + position, count: length)
        position &+= length
        return (raw, huffman)
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
        let (raw, huffman) = try stringBytes(bytes, at: &position)
        guard huffman else { return String(decoding: raw, as: UTF8.self) }
        return try HPACKHuffman.decodeString(raw)
    }
}
