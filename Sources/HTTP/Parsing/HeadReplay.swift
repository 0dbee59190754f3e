// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A connection's last request head's field block, kept so that what a client sends again is
/// not read again: a client sends the same fields request after request (curl, wrk, browsers,
/// our own upstream client byte for byte, see `RequestFieldsCache`). Same bytes, same facts:
/// the parser's limits and the checks that depend on the request line still run every time.
///
/// - A whole block equal byte for byte to the last one, when both arrived in one read: its
///   `FieldFacts` are taken as they were made (the header list shared, not rebuilt).
/// - Otherwise line by line (`FieldLineCache`): a field line equal to the one at its position
///   last time reuses that line's checks and strings.
///
/// Nothing is kept for a connection's first head, so a connection that serves one request
/// never pays for keeping it; nothing over `maxBlockBytes` / `FieldLineCache.maxBytes`, so an
/// idle connection holds little. The parser reading every line itself is the authoritative
/// twin: feeding the same bytes split at every point gives the same requests (the tests and
/// `scripts/fuzz-parser` compare them).
struct HeadReplay {
    /// At most this long a block is kept: a browser's fields fit.
    static let maxBlockBytes = 1024

    /// Whether a head has been read on this connection.
    private var warm = false
    private var lines = FieldLineCache()
    /// The last block's field lines to its blank line, byte for byte, and what they made.
    private var block: [UInt8] = []
    private var blockFacts = FieldFacts()
    /// The header bytes counted after the last block's blank line.
    private var blockHeaderBytes = 0
    /// Where the block being read started in the buffer being fed; nil when it did not start in
    /// this buffer or a line of it was split over reads.
    private var blockStart: Int?

    init() {}

    // MARK: - Whole blocks

    /// A new buffer is being fed: a block that started in the last one cannot be kept whole.
    mutating func bufferStarted() { blockStart = nil }

    /// A line was split over reads: the block it belongs to is not in one buffer.
    mutating func lineSplit() { blockStart = nil }

    /// A block starts at `start` of the buffer being fed (its request line ended just before).
    mutating func blockStarts(at start: Int) { blockStart = start }

    /// When the bytes from `start` begin with exactly the last block: its facts, assigned to
    /// `facts` in place (returned, they were copied once more and destroyed), and its header
    /// byte count and length.
    func lookup(blockAt start: Int, in bytes: UnsafeRawBufferPointer, into facts: inout FieldFacts) -> (headerBytes: Int, length: Int)? {
        guard !block.isEmpty, bytes.count - start >= block.count,
              block.withUnsafeBytes({ memcmp($0.baseAddress!, bytes.baseAddress! + start, block.count) == 0 })
        else { return nil }
        facts = blockFacts
        return (blockHeaderBytes, block.count)
    }

    /// Keeps the block that ends (with its blank line) at `end` of the buffer being fed, if it
    /// started in it, with what it made; `headerBytes` counts its blank line.
    mutating func remember(blockEndingAt end: Int, in bytes: UnsafeRawBufferPointer, facts: FieldFacts, headerBytes: Int) {
        guard warm, let start = blockStart, end + 1 - start <= Self.maxBlockBytes else { return }
        block.removeAll(keepingCapacity: true)
        block.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start...end]))
        blockFacts = facts
        blockHeaderBytes = headerBytes
    }

    /// A head is complete: from the next one on, blocks and lines are kept.
    mutating func headRead() { warm = true }

    // MARK: - Lines

    /// What was made of `line` when it was the `index`th field line last time, if it was.
    func lookup(line: UnsafeRawBufferPointer, at index: Int) -> (name: String, value: String, valueRange: Range<Int>, kind: FieldFacts.Kind?)? {
        lines.field(line, at: index)
    }

    /// Keeps `line` as the `index`th field line, with what was made of it.
    mutating func remember(
        line: UnsafeRawBufferPointer, at index: Int, name: String, value: String, valueRange: Range<Int>, kind: FieldFacts.Kind?
    ) {
        guard warm else { return }
        lines.remember(line, at: index, name: name, value: value, valueRange: valueRange, kind: kind)
    }
}
