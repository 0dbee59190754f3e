// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// A stream's response bytes on their way out: what waits for window (from `start` on), and the
/// write scheduler's notes on the stream (`isWaiting`, `stall`). Whether END_STREAM follows them is
/// the stream's state (`HTTP2StreamState.Sending.ending`).
struct HTTP2Outbound {
    /// A window that stays shut: since when, and how much went out since (a window opened a few
    /// bytes at a time does not end a stall, `HTTP2ConnectionLimits.stallProgressBytes`).
    struct Stall {
        var since: UInt64
        var sentSince = 0
    }

    private(set) var bytes: [UInt8] = []
    private(set) var start = 0
    /// Listed in the connection's `HTTP2WriteScheduler` (so it is listed once, without a search).
    var isWaiting = false
    var stall: Stall?

    var count: Int { bytes.count - start }

    mutating func append(_ more: [UInt8]) {
        if count == 0 && start > 0 {
            bytes.removeAll(keepingCapacity: true)
            start = 0
        }
        bytes.append(contentsOf: more)
    }

    /// The next `length` bytes, taken off the queue.
    mutating func take(_ length: Int) -> ArraySlice<UInt8> {
        defer { start += length }
        return bytes[start..<(start + length)]
    }

    /// The queue is empty: its buffer is kept for the next bytes unless it grew large.
    mutating func compact() {
        guard start > 0 else { return }
        bytes.removeAll(keepingCapacity: bytes.capacity <= 16_384)
        start = 0
    }

    mutating func clear() {
        bytes = []
        start = 0
    }
}
