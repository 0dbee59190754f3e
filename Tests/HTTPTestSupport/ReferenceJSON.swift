import Foundation

/// The bytes Foundation's `JSONEncoder` gives with sorted keys and unescaped slashes: the
/// reference `JSONOutput` and the answer types are held to.
public enum ReferenceJSON {
    public static func encode(_ value: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }
}
