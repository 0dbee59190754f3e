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
        var name: String
        var value: String
        var bytes: [UInt8]
        /// The table generation the bytes are valid for; nil: valid in every generation.
        var generation: Int?
        /// For `anyValue`: the bytes before the value.
        var namePart: Int?
    }

    private var entries: [Entry?] = []
    private var generation = 0
    /// A block longer than this is encoded past the memo: the memory stays bounded whatever a route sends.
    static let maxPositions = 32

    mutating func tableChanged() {
        generation &+= 1
    }

    /// Appends field `position`'s representation if the memo holds a valid one; false if not.
    mutating func copy(_ position: Int, name: String, value: String, into out: inout [UInt8]) -> Bool {
        guard position < entries.count, var entry = entries[position], entry.name == name else { return false }
        if entry.value == value && (entry.generation == nil || entry.generation == generation) {
            out.append(contentsOf: entry.bytes)
            return true
        }
        guard let namePart = entry.namePart else { return false }
        // Same never-indexed name, another value: the name part again, then the new value.
        entries[position] = nil // the entry's bytes uniquely referenced while they change
        let start = out.count
        out.append(contentsOf: entry.bytes[..<namePart])
        HPACKEncoder.encodeString(value, into: &out)
        entry.value = value
        entry.bytes.replaceSubrange(namePart..., with: out[(start + namePart)...])
        entries[position] = entry
        return true
    }

    mutating func store(_ position: Int, name: String, value: String, representation: ArraySlice<UInt8>, reuse: Reuse) {
        guard position < Self.maxPositions else { return }
        while entries.count <= position { entries.append(nil) }
        switch reuse {
        case .inserted:
            entries[position] = nil
        case .always:
            entries[position] = Entry(name: name, value: value, bytes: Array(representation), generation: nil, namePart: nil)
        case .whileTableUnchanged:
            entries[position] = Entry(name: name, value: value, bytes: Array(representation), generation: generation, namePart: nil)
        case .anyValue(let namePart):
            entries[position] = Entry(name: name, value: value, bytes: Array(representation), generation: nil, namePart: namePart)
        }
    }
}
