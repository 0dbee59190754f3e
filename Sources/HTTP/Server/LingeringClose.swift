// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency

/// The bounds of a lingering close (see `ServerConnection.lingerThenClose`): how long and how much
/// of a refused client's input is read and dropped before the connection is closed.
// @unchecked: confined to its connection's EventLoop queue, which serialises every access the way a lock would.
final class LingeringClose: @unchecked Sendable {
    /// 2 s: long enough for a client on the far side of the planet to see the answer and stop
    /// sending (nginx's `lingering_timeout` is 5 s between reads, `lingering_time` 30 s in all,
    /// sized for slow uploads; an answer the client already has needs less).
    static let time: Duration = .seconds(2)
    /// 16 MiB: a refused upload in flight is dropped up to this much, sixteen times the default
    /// body limit, so a client sending a few megabytes too many still reads its answer; more
    /// than that in 2 s is a client that will not stop, and gets closed.
    static let maxBytes = 16 << 20

    private let deadline: UInt64
    private var discarded = 0

    init(now: UInt64) {
        deadline = now &+ Self.time.nanoseconds
    }

    /// Counts `count` dropped bytes; true once over the bound.
    func discard(_ count: Int) -> Bool {
        discarded += count
        return discarded > Self.maxBytes
    }

    func isOver(now: UInt64) -> Bool { now >= deadline }
}
