/// Writes an `Encodable` value as compact JSON with sorted keys and unescaped slashes, the
/// bytes `JSONEncoder` with `[.sortedKeys, .withoutEscapingSlashes]` writes, for the value
/// types the routes answer with: objects, arrays, strings, booleans, integers and null.
///
/// Why: a `/users?limit=30` answer cost `JSONEncoder` about 1.35 million instructions (8 % of
/// the request), most of it its generic boxing; this builds a small tree and writes it in one pass.
/// A value it does not write byte for byte the same (a floating-point number, a `Date`,
/// `Data`, a `URL`, …) throws `Unsupported`, and `JSONBody` then uses `JSONEncoder`.
struct SortedKeysJSONWriter {
    struct Unsupported: Error {}

    func encode(_ value: some Encodable) throws -> [UInt8] {
        let root = Slot()
        try value.encode(to: TreeEncoder(slot: root, codingPath: []))
        var output: [UInt8] = []
        output.reserveCapacity(4096)
        try root.node.write(to: &output)
        return output
    }
}

/// One value of the tree, filled in by whichever container the value asks for.
private final class Slot {
    var node: Node = .pending
}

private enum Node {
    case pending
    case literal([UInt8])
    case string(String)
    case object(ObjectBox)
    case array(ArrayBox)

    func write(to output: inout [UInt8]) throws {
        switch self {
        case .pending:
            // A value that encoded nothing: JSONEncoder writes `{}` for it.
            output.append(contentsOf: [UInt8(ascii: "{"), UInt8(ascii: "}")])
        case .literal(let bytes):
            output.append(contentsOf: bytes)
        case .string(let text):
            Self.write(text, to: &output)
        case .object(let box):
            output.append(UInt8(ascii: "{"))
            // Keys are compared as JSONEncoder's `.sortedKeys` does for the routes' camelCase
            // ASCII keys; a key outside that set is left to JSONEncoder.
            guard box.fields.allSatisfy({ $0.key.utf8.allSatisfy { $0 < 0x80 && $0 != UInt8(ascii: "\\") && $0 >= 0x20 } }) else {
                throw SortedKeysJSONWriter.Unsupported()
            }
            let sorted = box.fields.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            for (index, field) in sorted.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Self.write(field.key, to: &output)
                output.append(UInt8(ascii: ":"))
                try field.slot.node.write(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        case .array(let box):
            output.append(UInt8(ascii: "["))
            for (index, slot) in box.elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                try slot.node.write(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        }
    }

    static func write(_ text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x08: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0A: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x00..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}

private final class ObjectBox {
    var fields: [(key: String, slot: Slot)] = []

    func slot(for key: String) -> Slot {
        if let existing = fields.first(where: { $0.key == key }) { return existing.slot }
        let slot = Slot()
        fields.append((key, slot))
        return slot
    }
}

private final class ArrayBox {
    var elements: [Slot] = []
}

private struct TreeEncoder: Encoder {
    let slot: Slot
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let box: ObjectBox
        if case .object(let existing) = slot.node { box = existing } else {
            box = ObjectBox()
            slot.node = .object(box)
        }
        return KeyedEncodingContainer(KeyedContainer<Key>(box: box, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let box: ArrayBox
        if case .array(let existing) = slot.node { box = existing } else {
            box = ArrayBox()
            slot.node = .array(box)
        }
        return UnkeyedContainer(box: box, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValue(slot: slot, codingPath: codingPath)
    }
}

/// Stores one value into a slot: the leaf types written exactly as JSONEncoder writes them.
private func store<T: Encodable>(_ value: T, in slot: Slot, codingPath: [any CodingKey]) throws {
    switch value {
    case let text as String: slot.node = .string(text)
    case let flag as Bool: slot.node = .literal(Array((flag ? "true" : "false").utf8))
    case let number as Int: slot.node = .literal(Array(String(number).utf8))
    case let number as Int64: slot.node = .literal(Array(String(number).utf8))
    case let number as Int32: slot.node = .literal(Array(String(number).utf8))
    case let number as UInt: slot.node = .literal(Array(String(number).utf8))
    case let number as UInt64: slot.node = .literal(Array(String(number).utf8))
    case is Float, is Double: throw SortedKeysJSONWriter.Unsupported()
    default:
        // Foundation types JSONEncoder writes specially (Date, Data, URL, Decimal, …) are not ours to guess.
        let name = String(reflecting: T.self)
        guard !name.hasPrefix("Foundation"), !name.hasPrefix("Swift.Float"), !name.hasPrefix("Swift.Double") else {
            throw SortedKeysJSONWriter.Unsupported()
        }
        try value.encode(to: TreeEncoder(slot: slot, codingPath: codingPath))
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let box: ObjectBox
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws {
        box.slot(for: key.stringValue).node = .literal(Array("null".utf8))
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try store(value, in: box.slot(for: key.stringValue), codingPath: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        TreeEncoder(slot: box.slot(for: key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        TreeEncoder(slot: box.slot(for: key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        TreeEncoder(slot: box.slot(for: "super"), codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        TreeEncoder(slot: box.slot(for: key.stringValue), codingPath: codingPath + [key])
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let box: ArrayBox
    let codingPath: [any CodingKey]
    var count: Int { box.elements.count }

    private func next() -> Slot {
        let slot = Slot()
        box.elements.append(slot)
        return slot
    }

    mutating func encodeNil() throws {
        next().node = .literal(Array("null".utf8))
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try store(value, in: next(), codingPath: codingPath)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        TreeEncoder(slot: next(), codingPath: codingPath).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        TreeEncoder(slot: next(), codingPath: codingPath).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        TreeEncoder(slot: next(), codingPath: codingPath)
    }
}

private struct SingleValue: SingleValueEncodingContainer {
    let slot: Slot
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws {
        slot.node = .literal(Array("null".utf8))
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try store(value, in: slot, codingPath: codingPath)
    }
}
