// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Why a header block could not be decoded. Every one of them is a connection error of type
/// COMPRESSION_ERROR (RFC 9113 §4.3): the decoder's table can no longer be trusted to match the peer's.
package enum HPACKError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The block ended inside an integer, a string or a representation.
    case truncated
    /// An integer larger than this decoder accepts (RFC 7541 §5.1 lets an implementation limit them).
    case integerOverflow
    /// An index that names no entry of the static or dynamic table.
    case invalidIndex(Int)
    /// A string longer than this decoder accepts.
    case stringTooLong(Int)
    /// Huffman data with the EOS symbol, or padding longer than 7 bits or not all ones (RFC 7541 §5.2).
    case invalidHuffman
    /// A dynamic table size update above the limit the decoder's SETTINGS allow (RFC 7541 §6.3).
    case invalidTableSizeUpdate(Int)
    /// A dynamic table size update after the block's first field (RFC 7541 §4.2).
    case tableSizeUpdateAfterField

    package var description: String {
        switch self {
        case .truncated: "header block truncated"
        case .integerOverflow: "HPACK integer too large"
        case .invalidIndex(let index): "HPACK index \(index) names no table entry"
        case .stringTooLong(let length): "HPACK string of \(length) bytes is too long"
        case .invalidHuffman: "invalid Huffman-coded string"
        case .invalidTableSizeUpdate(let size): "invalid dynamic table size update to \(size)"
        case .tableSizeUpdateAfterField: "dynamic table size update after a field"
        }
    }
}
