// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// The 61 entries of RFC 7541 Appendix A; index 1 is the first.
enum HPACKStaticTable {
    static let entries: [(name: String, value: String)] = [
        (":authority", ""), (":method", "GET"), (":method", "POST"), (":path", "/"), (":path", "/index.html"),
        (":scheme", "http"), (":scheme", "https"), (":status", "200"), (":status", "204"), (":status", "206"),
        (":status", "304"), (":status", "400"), (":status", "404"), (":status", "500"), ("accept-charset", ""),
        ("accept-encoding", "gzip, deflate"), ("accept-language", ""), ("accept-ranges", ""), ("accept", ""),
        ("access-control-allow-origin", ""), ("age", ""), ("allow", ""), ("authorization", ""), ("cache-control", ""),
        ("content-disposition", ""), ("content-encoding", ""), ("content-language", ""), ("content-length", ""),
        ("content-location", ""), ("content-range", ""), ("content-type", ""), ("cookie", ""), ("date", ""),
        ("etag", ""), ("expect", ""), ("expires", ""), ("from", ""), ("host", ""), ("if-match", ""),
        ("if-modified-since", ""), ("if-none-match", ""), ("if-range", ""), ("if-unmodified-since", ""),
        ("last-modified", ""), ("link", ""), ("location", ""), ("max-forwards", ""), ("proxy-authenticate", ""),
        ("proxy-authorization", ""), ("range", ""), ("referer", ""), ("refresh", ""), ("retry-after", ""),
        ("server", ""), ("set-cookie", ""), ("strict-transport-security", ""), ("transfer-encoding", ""),
        ("user-agent", ""), ("vary", ""), ("via", ""), ("www-authenticate", ""),
    ]

    /// The entries' bytes for `HPACKDecoder.decodeBytes`, which copies them without a `String`:
    /// entry `i`'s name then value lie at `bytes[starts[i - 1]..<starts[i]]`, the name's end at `nameEnds[i - 1]`.
    final class Bytes: Sendable {
        static let shared = Bytes()
        let bytes: [UInt8]
        /// One more than the entries: `starts[0]` is 0.
        let starts: [Int]
        let nameEnds: [Int]

        private init() {
            var bytes: [UInt8] = [], starts = [0], nameEnds: [Int] = []
            for entry in HPACKStaticTable.entries {
                bytes += entry.name.utf8
                nameEnds.append(bytes.count)
                bytes += entry.value.utf8
                starts.append(bytes.count)
            }
            self.bytes = bytes
            self.starts = starts
            self.nameEnds = nameEnds
        }
    }

    /// `Bytes.shared` as pointers, for `HPACKDecoder.decodeBytes`: reading the shared object
    /// retained and released it per field copied from the table (about 50 instructions a field,
    /// four fields an upstream answer: Benchmarks/README.md). Allocated once for the process and
    /// never written after.
    struct RawBytes {
        let bytes: UnsafePointer<UInt8>
        /// As `Bytes.starts` (one more than the entries) and `Bytes.nameEnds`.
        let starts: UnsafePointer<Int>
        let nameEnds: UnsafePointer<Int>

        fileprivate init(_ table: Bytes) {
            func copy<Element>(_ array: [Element]) -> UnsafePointer<Element> {
                let memory = UnsafeMutablePointer<Element>.allocate(capacity: array.count)
                memory.initialize(from: array, count: array.count)
                return UnsafePointer(memory)
            }
            bytes = copy(table.bytes)
            starts = copy(table.starts)
            nameEnds = copy(table.nameEnds)
        }
    }

    // Unsafe: immutable once made (the pointers are never written through).
    nonisolated(unsafe) static let rawBytes = RawBytes(Bytes.shared)

    /// For an encoder: the index of the first entry with each name, and of each name and value pair.
    static let nameIndex: [String: Int] = {
        var index: [String: Int] = [:]
        for (offset, entry) in entries.enumerated() where index[entry.name] == nil { index[entry.name] = offset + 1 }
        return index
    }()


    /// The index of the entry holding `name` and a non-empty `value`. Entries of one name are
    /// adjacent, so one lookup of the name and a short scan find it, with no key built per field.
    static func pairIndex(name: String, value: String) -> Int? {
        guard let start = nameIndex[name] else { return nil }
        return pairIndex(name: name, value: value, from: start)
    }

    /// `pairIndex(name:value:)` for a name whose first entry, `start` (`nameIndex[name]`), is known.
    static func pairIndex(name: String, value: String, from start: Int) -> Int? {
        guard !value.isEmpty else { return nil }
        var index = start
        while index <= entries.count && entries[index - 1].name == name {
            if entries[index - 1].value == value { return index }
            index += 1
        }
        return nil
    }
}
