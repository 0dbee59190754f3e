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

    /// Decodes `bytes`, refusing EOS and padding that is longer than 7 bits or not all ones.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) throws(HPACKError) {
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
