// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Turns field lists into header blocks (RFC 7541 §6): a field in the static or dynamic table is
/// sent as its index, others as literals added to the dynamic table, strings Huffman-coded when
/// that is shorter. One per connection and direction.
///
/// Fast path: the representations of the previous block's fields are kept by position
/// (`HPACKFieldMemo`); responses of one route list the same fields in the same order, so most of
/// a block is copied from there instead of looked up, compared against the table and Huffman-coded
/// again. `memoizes: false` is its slow twin, every field encoded from the tables; both give the
/// same bytes (HPACKEncoderTests).
package struct HPACKEncoder: Sendable {
    private var table: HPACKDynamicTable
    /// Sizes the table took since the last block, to announce at the start of the next (§4.2):
    /// the smallest of them and the final one.
    private var pendingSizeUpdates: (smallest: Int, final: Int)?
    private var memo: HPACKFieldMemo?
    private var template: Template?

    /// A block's bytes around its one varying field, kept for blocks that repeat it but for that
    /// field (`encode(_:template:varying:into:)`). A class: read for each block, a struct's five
    /// references were each retained and released.
    private final class Template: Sendable {
        /// The caller's object for "these fields but the varying one"; held, so its identity is not reused.
        let key: any AnyObject & Sendable
        let generation: Int
        let position: Int
        let name: String
        let before: [UInt8]
        let after: [UInt8]
        /// `before`, then the varying field's representation before its value (a never-indexed
        /// name's static index or literal), for a value without a static pair, whose first entry is
        /// `staticName`: in one array, appended once (as two, the second append cost about 55
        /// instructions an upstream exchange: Benchmarks/README.md).
        let beforeAndName: [UInt8]
        let staticName: Int?
        /// The values the static table pairs with the varying field's name (`:path`'s `/` and
        /// `/index.html`), as bytes: a value is looked for among them by its length first.
        let staticValues: [[UInt8]]

        init(key: any AnyObject & Sendable, generation: Int, position: Int, name: String, before: [UInt8], after: [UInt8],
             namePart: [UInt8], staticName: Int?) {
            var staticValues: [[UInt8]] = []
            if var index = staticName {
                while index <= HPACKStaticTable.entries.count && HPACKStaticTable.entries[index - 1].name == name {
                    if !HPACKStaticTable.entries[index - 1].value.isEmpty { staticValues.append(Array(HPACKStaticTable.entries[index - 1].value.utf8)) }
                    index += 1
                }
            }
            self.staticValues = staticValues
            self.key = key
            self.generation = generation
            self.position = position
            self.name = name
            self.before = before
            self.after = after
            beforeAndName = before + namePart
            self.staticName = staticName
        }

        /// `HPACKStaticTable.pairIndex(name:value:from:) != nil` for the varying field's value as bytes.
        func hasStaticPair(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
            for index in staticValues.indices where staticValues[index].count == value.count {
                if staticValues[index].withUnsafeBufferPointer({ $0.elementsEqual(value) }) { return true }
            }
            return false
        }
    }
    /// Fields whose values change with nearly every message and would only churn the table. A
    /// request's `:path` and `if-none-match` among them, as nghttp2's deflater leaves them out: an
    /// upstream client's fan-out sends a new path per request, and each one inserted moved every
    /// index, so the rest of the block (`:authority`, `accept`, `user-agent`) was looked up in the
    /// table again instead of copied from the memo (the figure: Benchmarks/README.md).
    private static let neverIndexed: Set<String> = [
        "date", "content-length", "x-request-id", "etag", "set-cookie", "authorization", "last-modified", ":path", "if-none-match",
    ]

    package init(maxTableSize: Int = 4096, memoizes: Bool = true) {
        table = HPACKDynamicTable(maximumSize: maxTableSize)
        memo = memoizes ? HPACKFieldMemo() : nil
    }

    package var dynamicTableSize: Int { table.size }

    /// The peer's SETTINGS_HEADER_TABLE_SIZE: this encoder's table may use at most that much.
    package mutating func setMaxTableSize(_ size: Int) {
        guard size != table.maximumSize || pendingSizeUpdates != nil else { return }
        let smallest = min(pendingSizeUpdates?.smallest ?? size, size)
        pendingSizeUpdates = (smallest, size)
        table.resize(to: size)
        memo?.tableChanged()
    }

    /// `encode(_:into:)` for a block that the caller promises is, under one `key` object, the
    /// same fields every time but the one at `varying.position` (an upstream client's request
    /// heads to one origin: all but `:path`). While the table stays as it was, the block is the
    /// bytes kept from last time around that field's, freshly encoded: only for a never-indexed
    /// name, whose encoding changes no table, so the bytes after it stay valid. A request's
    /// fields, one at a time through the memo, cost about 3,700 instructions an exchange
    /// (Benchmarks/README.md). Without a key, or without the memo (the slow twin), it is
    /// `encode(_:into:)`; HPACKEncoderTests and the HPACK fuzz target compare the bytes of the two.
    package mutating func encode(
        _ fields: some Sequence<(name: String, value: String)>, template key: (any AnyObject & Sendable)?,
        varying: (position: Int, field: (name: String, value: String)), into out: inout [UInt8]
    ) {
        HTTP2FieldRules.withBytes(of: varying.field.value) { value in
            encode(fields, template: key, varyingAt: varying.position, name: varying.field.name, value: value,
                   valueString: { varying.field.value }, into: &out)
        }
    }

    /// `encode(_:template:varying:into:)` with the varying field's value as bytes where they lie:
    /// while the template holds, that value is all the block needs of it, so a caller whose value
    /// is not a `String` yet (an upstream request's `:path`, written from its URL's parts, whose
    /// `String` cost about 600 instructions an exchange: Benchmarks/README.md) makes none.
    /// `valueString` makes it when the block is encoded field by field (`fields` then lists it at
    /// `position` too). The `String` variant is this one over the value's UTF-8.
    package mutating func encode(
        _ fields: some Sequence<(name: String, value: String)>, template key: (any AnyObject & Sendable)?,
        varyingAt position: Int, name: String, value: UnsafeBufferPointer<UInt8>, valueString: () -> String,
        into out: inout [UInt8]
    ) {
        guard let key, memo != nil, pendingSizeUpdates == nil else {
            template = nil
            return encode(fields, into: &out)
        }
        if let template, template.key === key, template.generation == memo!.generation, template.position == position,
           template.name == name {
            if template.hasStaticPair(value) {
                out.append(contentsOf: template.before)
                var memo = self.memo.take()!
                encode((name, valueString()), at: position, memo: &memo, into: &out)
                self.memo = memo
            } else {
                // What `encode(name:value:)` writes for a never-indexed name: the name part, then the value.
                out.append(contentsOf: template.beforeAndName)
                Self.encodeValue(value, of: name, into: &out)
            }
            out.append(contentsOf: template.after)
            return
        }
        encodeMakingTemplate(fields, key: key, varying: (position, (name, valueString())), into: &out)
    }


    /// The block field by field through the memo, and the template kept for the next block when it may be.
    private mutating func encodeMakingTemplate(
        _ fields: some Sequence<(name: String, value: String)>, key: any AnyObject & Sendable,
        varying: (position: Int, field: (name: String, value: String)), into out: inout [UInt8]
    ) {
        var memo = self.memo.take()!
        template = nil
        let start = out.count, startGeneration = memo.generation
        var position = 0
        var varyingStart = -1, varyingEnd = -1
        for field in fields {
            if position == varying.position { varyingStart = out.count }
            encode(field, at: position, memo: &memo, into: &out)
            if position == varying.position { varyingEnd = out.count }
            position += 1
        }
        let generation = memo.generation
        self.memo = memo
        guard generation == startGeneration, varyingStart >= 0, Self.neverIndexed.contains(varying.field.name),
              table.find(name: varying.field.name, value: varying.field.value).name == nil else { return }
        let staticName = HPACKStaticTable.nameIndex[varying.field.name]
        var namePart: [UInt8] = []
        HPACKInteger.encode(staticName ?? 0, prefixBits: 4, flags: 0x00, into: &namePart)
        if staticName == nil { Self.encodeString(varying.field.name, into: &namePart) }
        template = Template(key: key, generation: generation, position: varying.position, name: varying.field.name,
                            before: Array(out[start..<varyingStart]), after: Array(out[varyingEnd...]),
                            namePart: namePart, staticName: staticName)
    }

    /// One field through the memo: its kept representation, or encoded from the tables and kept.
    private mutating func encode(_ field: (name: String, value: String), at position: Int, memo: inout HPACKFieldMemo, into out: inout [UInt8]) {
        if !memo.copy(position, name: field.name, value: field.value, into: &out) {
            let start = out.count
            let reuse = encode(name: field.name, value: field.value, into: &out)
            if case .inserted = reuse { memo.tableChanged() }
            memo.store(position, name: field.name, value: field.value, representation: out[start...], reuse: reuse)
        }
    }

    /// Appends the block for `fields`; names must already be lowercase.
    package mutating func encode(_ fields: some Sequence<(name: String, value: String)>, into out: inout [UInt8]) {
        if let updates = pendingSizeUpdates {
            pendingSizeUpdates = nil
            if updates.smallest < updates.final {
                HPACKInteger.encode(updates.smallest, prefixBits: 5, flags: 0x20, into: &out)
            }
            HPACKInteger.encode(updates.final, prefixBits: 5, flags: 0x20, into: &out)
        }
        guard var memo else {
            for field in fields { _ = encode(name: field.name, value: field.value, into: &out) }
            return
        }
        // Taken out while in use, so that the memo's storage is uniquely referenced and changes in place.
        self.memo = nil
        var position = 0
        for field in fields {
            encode(field, at: position, memo: &memo, into: &out)
            position += 1
        }
        self.memo = memo
    }

    /// The slow twin: one field from the tables; says how its representation may be reused.
    private mutating func encode(name: String, value: String, into out: inout [UInt8]) -> HPACKFieldMemo.Reuse {
        if let index = HPACKStaticTable.pairIndex(name: name, value: value) {
            HPACKInteger.encode(index, prefixBits: 7, flags: 0x80, into: &out)
            return .always
        }
        let staticCount = HPACKStaticTable.entries.count
        let dynamic = table.find(name: name, value: value)
        if let pair = dynamic.pair {
            HPACKInteger.encode(staticCount + pair, prefixBits: 7, flags: 0x80, into: &out)
            return .whileTableUnchanged
        }
        let start = out.count
        let staticName = HPACKStaticTable.nameIndex[name]
        let nameIndex = staticName ?? dynamic.name.map { staticCount + $0 } ?? 0
        let neverIndexed = Self.neverIndexed.contains(name)
        let indexes = !neverIndexed && HPACKDynamicTable.entrySize(name: name, value: value) <= table.maximumSize / 2
        if indexes {
            HPACKInteger.encode(nameIndex, prefixBits: 6, flags: 0x40, into: &out)
        } else {
            HPACKInteger.encode(nameIndex, prefixBits: 4, flags: 0x00, into: &out)
        }
        if nameIndex == 0 { Self.encodeString(name, into: &out) }
        let namePart = out.count - start
        Self.encodeValue(value, of: name, into: &out)
        if indexes {
            table.insert(name: name, value: value)
            return .inserted
        }
        // A never-indexed name is never in the dynamic table, so every value of it without a pair in
        // the static one (`:path`'s `/`, the memo checks) goes out as this same name part (static
        // index or literal) and the value.
        if neverIndexed && dynamic.name == nil { return .anyValue(namePart: namePart) }
        return .whileTableUnchanged
    }

    /// The string's bytes where they lie: through `String.UTF8View` each byte cost an index step,
    /// twice (counted, then coded); a request's `:path` is coded once per request.
    /// A field's value as a string literal: raw for a request's `:path`, as `encodeString` chooses
    /// otherwise. A `:path` is new with nearly every request (an upstream client's fan-out), and
    /// Huffman-coding it cost about 500 instructions an exchange to save two or three bytes of a
    /// ten-byte target (Benchmarks/README.md); RFC 7541 §5.2 leaves the choice to the encoder.
    static func encodeValue(_ value: UnsafeBufferPointer<UInt8>, of name: String, into out: inout [UInt8]) {
        guard name == ":path" else { return encodeString(value, into: &out) }
        HPACKInteger.encode(value.count, prefixBits: 7, flags: 0x00, into: &out)
        out.append(contentsOf: value)
    }

    static func encodeValue(_ value: String, of name: String, into out: inout [UInt8]) {
        HTTP2FieldRules.withBytes(of: value) { encodeValue($0, of: name, into: &out) }
    }

    static func encodeString(_ string: String, into out: inout [UInt8]) {
        HTTP2FieldRules.withBytes(of: string) { encodeString($0, into: &out) }
    }

    static func encodeString(_ utf8: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        let huffmanCount = HPACKHuffman.encodedCount(utf8)
        if huffmanCount < utf8.count {
            HPACKInteger.encode(huffmanCount, prefixBits: 7, flags: 0x80, into: &out)
            HPACKHuffman.encode(utf8, encodedCount: huffmanCount, into: &out)
        } else {
            HPACKInteger.encode(utf8.count, prefixBits: 7, flags: 0x00, into: &out)
            out.append(contentsOf: utf8)
        }
    }
}
