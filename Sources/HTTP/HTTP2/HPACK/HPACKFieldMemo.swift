// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// An encoder's memory of the representations it wrote last, one per field position in a block.
/// A representation is copied again only while it means the same thing: one that names the
/// dynamic table (an index, or a name index into it) only until the table next changes (an
/// insertion or a resize moves every index), one that inserted a field never (the next block finds
/// the field indexed instead). A never-indexed name keeps its name part for any value.
struct HPACKFieldMemo: Sendable {
    enum Reuse: Sendable {
        /// The field was added to the dynamic table: the same field is an index next time.
        case inserted
        /// Depends on nothing that changes (a static index).
        case always
        /// Names the dynamic table.
        case whileTableUnchanged
        /// Depends on nothing that changes, and its first `namePart` bytes serve every value of the name.
        case anyValue(namePart: Int)
    }

    private struct Entry {
        /// Empty: no representation kept at this position (no field has an empty name).
        var name: String
        var value: String
        var bytes: [UInt8]
        /// The table generation the bytes are valid for; nil: valid in every generation.
        var generation: Int?
        /// For `anyValue`: the bytes before the value.
        var namePart: Int?
        /// For `anyValue`: the name's first entry in the static table, whose pairs (`:path`'s `/`)
        /// a new value is checked against before the name part is reused, without hashing the name.
        var staticName: Int?

        /// No position: a generation no table reaches, no name part, so nothing is copied from it.
        static let none = Entry(name: "", value: "", bytes: [], generation: -1, namePart: nil)
    }

    /// Read and changed where they lie (`withUnsafeMutableBufferPointer`): an `Entry?` read out of
    /// the array was a copy through value witnesses, a retain and release of each of its three
    /// buffers per field per block (the figure: Benchmarks/README.md).
    private var entries: [Entry] = []
    /// Counts the table's changes (insertions, resizes): an entry, and the encoder's template, is
    /// valid in one generation only.
    private(set) var generation = 0
    /// A block longer than this is encoded past the memo: the memory stays bounded whatever a route sends.
    static let maxPositions = 32

    mutating func tableChanged() {
        generation &+= 1
    }

    /// Appends field `position`'s representation if the memo holds a valid one; false if not.
    mutating func copy(_ position: Int, name: String, value: String, into out: inout [UInt8]) -> Bool {
        guard position < entries.count else { return false }
        let generation = generation
        return entries.withUnsafeMutableBufferPointer { entries in
            let entry = entries.baseAddress! + position
            guard entry.pointee.name == name else { return false }
            if entry.pointee.value == value && (entry.pointee.generation == nil || entry.pointee.generation == generation) {
                out.append(contentsOf: entry.pointee.bytes)
                return true
            }
            // Same never-indexed name, another value without a static pair: the name part again, then the new value.
            guard let namePart = entry.pointee.namePart else { return false }
            if let start = entry.pointee.staticName, HPACKStaticTable.pairIndex(name: name, value: value, from: start) != nil { return false }
            let start = out.count
            out.append(contentsOf: entry.pointee.bytes[..<namePart])
            HPACKEncoder.encodeValue(value, of: name, into: &out)
            entry.pointee.value = value
            entry.pointee.bytes.replaceSubrange(namePart..., with: out[(start + namePart)...])
            return true
        }
    }

    mutating func store(_ position: Int, name: String, value: String, representation: ArraySlice<UInt8>, reuse: Reuse) {
        guard position < Self.maxPositions else { return }
        while entries.count <= position { entries.append(.none) }
        switch reuse {
        case .inserted:
            entries[position] = .none
        case .always:
            entries[position] = Entry(name: name, value: value, bytes: Array(representation), generation: nil, namePart: nil)
        case .whileTableUnchanged:
            entries[position] = Entry(name: name, value: value, bytes: Array(representation), generation: generation, namePart: nil)
        case .anyValue(let namePart):
            entries[position] = Entry(name: name, value: value, bytes: Array(representation), generation: nil, namePart: namePart,
                                      staticName: HPACKStaticTable.nameIndex[name])
        }
    }
}
