// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Which stream's DATA goes next when a window opens or the socket drains (the shape of Go's
/// `WriteScheduler`, first come first served): a stream the windows or the socket's backlog
/// stopped waits here, listed once, and the waiting ones go on oldest first.
struct HTTP2WriteScheduler {
    private var waiting: [HTTP2Stream] = []

    var isEmpty: Bool { waiting.isEmpty }

    mutating func wait(_ stream: HTTP2Stream) {
        guard !stream.outbound.isWaiting else { return }
        stream.outbound.isWaiting = true
        waiting.append(stream)
    }

    /// The streams in the order they stopped, each taken off the list; closed ones are skipped.
    mutating func takeWaiting() -> [HTTP2Stream] {
        let taken = waiting
        waiting = []
        for stream in taken { stream.outbound.isWaiting = false }
        return taken.filter { !$0.state.isClosed }
    }

    /// Streams whose window stayed shut longer than `timeout` with bytes still to send. Only a waiting
    /// stream can be stalled, so the sweep visits these, not every stream of every connection.
    func stalled(now: UInt64, longerThan timeout: UInt64) -> [HTTP2Stream] {
        waiting.filter { stream in
            guard !stream.state.isClosed, let stall = stream.outbound.stall else { return false }
            return stream.outbound.count > 0 && now &- stall.since > timeout
        }
    }
}
