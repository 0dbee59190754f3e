// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// The Huffman code of RFC 7541 §5.2 and Appendix B, both directions.
enum HPACKHuffman {
    /// Bytes `bytes` would take Huffman-coded.
    static func encodedCount<C: Collection>(_ bytes: C) -> Int where C.Element == UInt8 {
        var bits = 0
        for byte in bytes { bits += Int(HPACKHuffmanTable.lengths[Int(byte)]) }
        return (bits + 7) / 8
    }

    /// Appends the code of `bytes`, padded with the most significant bits of EOS (all ones).
    static func encode<C: Collection>(_ bytes: C, into out: inout [UInt8]) where C.Element == UInt8 {
        var accumulator: UInt64 = 0
        var bitCount = 0
        for byte in bytes {
            let length = Int(HPACKHuffmanTable.lengths[Int(byte)])
            accumulator = (accumulator << UInt64(length)) | UInt64(HPACKHuffmanTable.codes[Int(byte)])
            bitCount += length
            while bitCount >= 8 {
                bitCount -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt64(bitCount)))
            }
        }
        if bitCount > 0 {
            let padding = 8 - bitCount
            out.append(UInt8(truncatingIfNeeded: (accumulator << UInt64(padding)) | ((1 << UInt64(padding)) - 1)))
        }
    }

    /// `encode(_:into:)` for bytes in place whose coded size is known (`encodedCount`): written into
    /// room made at once, through the tables' buffers. Appended a byte at a time, each append checked
    /// the array's room and uniqueness: a request's `:path` cost about 25 instructions a byte. The
    /// generic `encode` is its slow twin (HPACKHuffmanTests compares the two).
    static func encode(_ bytes: UnsafeBufferPointer<UInt8>, encodedCount: Int, into out: inout [UInt8]) {
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: encodedCount))
        out.withUnsafeMutableBufferPointer { out in
            HPACKHuffmanTable.codes.withUnsafeBufferPointer { codes in
                HPACKHuffmanTable.lengths.withUnsafeBufferPointer { lengths in
                    var accumulator: UInt64 = 0
                    var bitCount = 0
                    var at = start
                    for byte in bytes {
                        let length = Int(lengths[Int(byte)])
                        accumulator = (accumulator << UInt64(length)) | UInt64(codes[Int(byte)])
                        bitCount += length
                        while bitCount >= 8 {
                            bitCount -= 8
                            out[at] = UInt8(truncatingIfNeeded: accumulator >> UInt64(bitCount))
                            at += 1
                        }
                    }
                    if bitCount > 0 {
                        let padding = 8 - bitCount
                        out[at] = UInt8(truncatingIfNeeded: (accumulator << UInt64(padding)) | ((1 << UInt64(padding)) - 1))
                    }
                }
            }
        }
    }

    /// Decodes `bytes` into a `String` (its UTF-8 repaired as `String(decoding:as:)` does), refusing
    /// EOS and padding that is longer than 7 bits or not all ones. The fast path of `decode`, without
    /// the intermediate array.
    static func decodeString(_ bytes: UnsafeBufferPointer<UInt8>) throws(HPACKError) -> String {
        var failed = false
        let string = String(unsafeUninitializedCapacity: decodedCapacity(bytes.count)) { out in
            do { return try decode(bytes, into: out) } catch { failed = true; return 0 }
        }
        guard !failed else { throw .invalidHuffman }
        return string
    }

    /// `decode(_:into:)` into an array: what tests and the fuzz target compare with `decodeBitByBit`.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws(HPACKError) -> [UInt8] {
        var failed = false
        let decoded = [UInt8](unsafeUninitializedCapacity: decodedCapacity(bytes.count)) { out, count in
            do { count = try decode(bytes, into: out) } catch { failed = true; count = 0 }
        }
        guard !failed else { throw .invalidHuffman }
        return decoded
    }

    /// Room `decode(_:into:)` needs for `count` coded bytes: every code is at least 5 bits long, and
    /// two bytes more because the decoder writes each byte's two symbol slots before it knows it has them.
    static func decodedCapacity(_ count: Int) -> Int { count * 8 / 5 + 2 }

    /// Decodes `bytes` into `out` (at least `decodedCapacity(bytes.count)` long) and returns the
    /// count written, a byte a step through `DecodingMachine`; the same answers as `decodeBitByBit`
    /// (HPACKHuffmanTests, and the HPACK fuzz target compares the two).
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>) throws(HPACKError) -> Int {
        try decodeNoting(bytes, into: out).count
    }

    /// What the decoded bytes hold, noted by the machine as it emits them, so the HPACK decoder
    /// need not look at them again (the value checks' and the list size's scans of every literal):
    /// a NUL, CR or LF (`forbidden`), a byte above 0x7F (`high`, so maybe UTF-8 to repair).
    struct Notes: Equatable {
        var forbidden: Bool
        var high: Bool

        /// What `bytes` hold, read byte by byte: the slow twin of the machine's notes.
        init(of bytes: UnsafeBufferPointer<UInt8>) {
            forbidden = bytes.contains { $0 == 0 || $0 == 0x0A || $0 == 0x0D }
            high = bytes.contains { $0 >= 0x80 }
        }

        init(forbidden: Bool, high: Bool) {
            self.forbidden = forbidden
            self.high = high
        }
    }

    /// `decode(_:into:)` with the `Notes` of what it wrote.
    static func decodeNoting(_ bytes: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>) throws(HPACKError) -> (count: Int, notes: Notes) {
        precondition(out.count >= decodedCapacity(bytes.count), "no room for the decoded bytes")
        guard let output = out.baseAddress else { return (0, Notes(forbidden: false, high: false)) }
        var count = 0
        // Flags of every step, or-ed: a single `fails` among them is the answer; the last step's
        // `accepts` says whether the code ended on a symbol or a valid padding.
        var flags: UInt32 = DecodingMachine.accepts
        DecodingMachine.shared.transitions.withUnsafeBufferPointer { table in
            var state = 0
            var last: UInt32 = DecodingMachine.accepts
            for byte in bytes {
                // Branch-free: both symbol slots are written whether the step had them, and counted if it had.
                let step = table[state &<< 8 | Int(byte)]
                output[count] = UInt8(truncatingIfNeeded: step &>> 8)
                output[count &+ 1] = UInt8(truncatingIfNeeded: step &>> 16)
                count &+= Int((step &>> 24) & 3)
                flags |= step
                state = Int(step & 0xFF)
                last = step
            }
            flags = (flags & (DecodingMachine.fails | DecodingMachine.forbidden | DecodingMachine.high)) | (last & DecodingMachine.accepts)
        }
        guard flags & DecodingMachine.fails == 0, flags & DecodingMachine.accepts != 0 else { throw .invalidHuffman }
        return (count, Notes(forbidden: flags & DecodingMachine.forbidden != 0, high: flags & DecodingMachine.high != 0))
    }

    /// The slow twin of `decode(_:into:)`, a bit at a time down `DecodingTree`: the reference the
    /// fast decoder is tested against. Refuses EOS and padding longer than 7 bits or not all ones.
    static func decodeBitByBit(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) throws(HPACKError) {
        let tree = DecodingTree.shared
        var node = 0
        // Bits read since the last symbol, and whether all of them were ones: what is left at the
        // end must be a prefix of EOS, so at most 7 bits, all ones (RFC 7541 §5.2).
        var pendingBits = 0
        var pendingAllOnes = true
        for byte in bytes {
            for shift in stride(from: 7, through: 0, by: -1) {
                let bit = Int((byte >> UInt8(shift)) & 1)
                let next = tree.children[node &* 2 &+ bit]
                pendingBits += 1
                if bit == 0 { pendingAllOnes = false }
                if next >= 0 {
                    node = Int(next)
                    continue
                }
                let symbol = Int(-next - 1)
                guard symbol < 256 else { throw .invalidHuffman }
                out.append(UInt8(symbol))
                node = 0
                pendingBits = 0
                pendingAllOnes = true
            }
        }
        guard pendingBits <= 7, pendingAllOnes else { throw .invalidHuffman }
    }

    /// `DecodingTree` as a machine that reads a byte a step (nghttp2's decoder reads four bits a
    /// step; a byte halves the steps, 65 k instructions of Huffman decoding a `/users` request over
    /// HTTP/2 with four bits): a state is an inner node of the tree (256 of them, the root 0), and
    /// `transitions[state << 8 | byte]` is the node the eight bits lead to, the symbols they completed
    /// (no code is shorter than 5 bits, so at most two), and whether they ran into EOS. Made from the
    /// code table at first use rather than written out: 65,536 entries of data the 257 codes already say.
    final class DecodingMachine: Sendable {
        static let shared = DecodingMachine()
        /// Bits 0–7 the next state, 8–15 the first symbol, 16–23 the second, 24–25 how many, then the flags below.
        let transitions: [UInt32]
        static let fails: UInt32 = 1 << 26
        /// The next state may end the string: the root, or up to 7 ones into EOS (RFC 7541 §5.2).
        static let accepts: UInt32 = 1 << 27
        /// The step emitted a NUL, CR or LF (refused in a field value).
        static let forbidden: UInt32 = 1 << 28
        /// The step emitted a byte above 0x7F.
        static let high: UInt32 = 1 << 29

        private init() {
            let children = DecodingTree.shared.children
            let states = children.count / 2
            precondition(states <= 256, "a state must fit in a byte")
            // The inner nodes reached from the root by 1 to 7 one bits: a padding may stop there.
            var accepting = [Bool](repeating: false, count: states)
            accepting[0] = true
            var node = 0
            for _ in 0..<7 {
                let next = Int(children[node * 2 + 1])
                guard next > 0 else { break }
                node = next
                accepting[node] = true
            }
            var transitions = [UInt32](repeating: 0, count: states * 256)
            for state in 0..<states {
                for byte in 0..<256 {
                    var node = state
                    var entry: UInt32 = 0
                    var emitted: UInt32 = 0
                    for shift in stride(from: 7, through: 0, by: -1) {
                        let next = Int(children[node * 2 + ((byte >> shift) & 1)])
                        if next >= 0 {
                            node = next
                            continue
                        }
                        let symbol = -next - 1
                        if symbol == 256 {
                            entry |= Self.fails
                        } else {
                            precondition(emitted < 2, "three symbols in eight bits")
                            entry |= UInt32(symbol) << (8 + 8 * emitted)
                            emitted += 1
                            if symbol == 0 || symbol == 0x0A || symbol == 0x0D { entry |= Self.forbidden }
                            if symbol >= 0x80 { entry |= Self.high }
                        }
                        node = 0
                    }
                    if accepting[node] { entry |= Self.accepts }
                    transitions[state * 256 + byte] = entry | emitted << 24 | UInt32(node)
                }
            }
            self.transitions = transitions
        }
    }

    /// A binary tree of the 257 codes, as a flat array: node `n`'s children are at `2n` (bit 0) and
    /// `2n + 1` (bit 1); a value ≥ 0 is the next node, a negative one `-(symbol + 1)`.
    final class DecodingTree: Sendable {
        static let shared = DecodingTree()
        let children: [Int32]

        private init() {
            var children: [Int32] = [0, 0]
            var nodeCount = 1
            for symbol in 0..<257 {
                let code = HPACKHuffmanTable.codes[symbol]
                let length = Int(HPACKHuffmanTable.lengths[symbol])
                var node = 0
                for position in stride(from: length - 1, through: 0, by: -1) {
                    let bit = Int((code >> UInt32(position)) & 1)
                    let slot = node * 2 + bit
                    if position == 0 {
                        children[slot] = Int32(-(symbol + 1))
                    } else {
                        if children[slot] == 0 {
                            children[slot] = Int32(nodeCount)
                            nodeCount += 1
                            children.append(contentsOf: [0, 0])
                        }
                        node = Int(children[slot])
                    }
                }
            }
            self.children = children
        }
    }
}
