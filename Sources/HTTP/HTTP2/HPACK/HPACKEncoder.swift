/// Turns field lists into header blocks (RFC 7541 §6): a field in the static or dynamic table is
/// sent as its index, others as literals added to the dynamic table, strings Huffman-coded when
/// that is shorter. One per connection and direction.
public struct HPACKEncoder: Sendable {
    private var table: HPACKDynamicTable
    /// Sizes the table took since the last block, to announce at the start of the next (§4.2):
    /// the smallest of them and the final one.
    private var pendingSizeUpdates: (smallest: Int, final: Int)?
    /// Fields whose values change with nearly every message and would only churn the table.
    private static let neverIndexed: Set<String> = ["date", "content-length", "x-request-id", "etag", "set-cookie", "authorization", "last-modified"]

    public init(maxTableSize: Int = 4096) {
        table = HPACKDynamicTable(maximumSize: maxTableSize)
    }

    public var dynamicTableSize: Int { table.size }

    /// The peer's SETTINGS_HEADER_TABLE_SIZE: this encoder's table may use at most that much.
    public mutating func setMaxTableSize(_ size: Int) {
        guard size != table.maximumSize || pendingSizeUpdates != nil else { return }
        let smallest = min(pendingSizeUpdates?.smallest ?? size, size)
        pendingSizeUpdates = (smallest, size)
        table.resize(to: size)
    }

    /// Appends the block for `fields`; names must already be lowercase.
    public mutating func encode(_ fields: some Sequence<(name: String, value: String)>, into out: inout [UInt8]) {
        if let updates = pendingSizeUpdates {
            pendingSizeUpdates = nil
            if updates.smallest < updates.final {
                HPACKInteger.encode(updates.smallest, prefixBits: 5, flags: 0x20, into: &out)
            }
            HPACKInteger.encode(updates.final, prefixBits: 5, flags: 0x20, into: &out)
        }
        for field in fields { encode(name: field.name, value: field.value, into: &out) }
    }

    private mutating func encode(name: String, value: String, into out: inout [UInt8]) {
        if let index = HPACKStaticTable.pairIndex[name + "\0" + value] {
            HPACKInteger.encode(index, prefixBits: 7, flags: 0x80, into: &out)
            return
        }
        let staticCount = HPACKStaticTable.entries.count
        let dynamic = table.find(name: name, value: value)
        if let pair = dynamic.pair {
            HPACKInteger.encode(staticCount + pair, prefixBits: 7, flags: 0x80, into: &out)
            return
        }
        let nameIndex = HPACKStaticTable.nameIndex[name] ?? dynamic.name.map { staticCount + $0 } ?? 0
        let indexes = !Self.neverIndexed.contains(name)
            && HPACKDynamicTable.entrySize(name: name, value: value) <= table.maximumSize / 2
        if indexes {
            HPACKInteger.encode(nameIndex, prefixBits: 6, flags: 0x40, into: &out)
        } else {
            HPACKInteger.encode(nameIndex, prefixBits: 4, flags: 0x00, into: &out)
        }
        if nameIndex == 0 { Self.encodeString(name, into: &out) }
        Self.encodeString(value, into: &out)
        if indexes { table.insert(name: name, value: value) }
    }

    static func encodeString(_ string: String, into out: inout [UInt8]) {
        let utf8 = string.utf8
        let huffmanCount = HPACKHuffman.encodedCount(utf8)
        if huffmanCount < utf8.count {
            HPACKInteger.encode(huffmanCount, prefixBits: 7, flags: 0x80, into: &out)
            HPACKHuffman.encode(utf8, into: &out)
        } else {
            HPACKInteger.encode(utf8.count, prefixBits: 7, flags: 0x00, into: &out)
            out.append(contentsOf: utf8)
        }
    }
}
