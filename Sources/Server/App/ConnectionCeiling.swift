// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// `--max-connections` against the open-files limit: every connection is a descriptor, and the
/// process needs some for itself (listening sockets, each loop's epoll and wake-up descriptors,
/// the upstream pool and, with the embedded demo, its server side of each pooled connection,
/// Redis, logs). Above `ceiling` the server would run out of descriptors before reaching its
/// own limit, and `accept()` would fail instead of the clear 503 the limit gives.
enum ConnectionCeiling {
    /// A quarter of the limit, between 32 and 256 descriptors: the demo upstream's pool alone can
    /// hold 2 × 64 of them, and a limit of 1,024 still leaves 768 for clients.
    static func reserve(openFilesLimit: Int) -> Int {
        min(256, max(32, openFilesLimit / 4))
    }

    /// The most client connections `openFilesLimit` descriptors can carry (at least 1).
    static func ceiling(openFilesLimit: Int) -> Int {
        max(1, openFilesLimit - reserve(openFilesLimit: openFilesLimit))
    }

    /// `maxConnections` lowered to the ceiling, and the sentence saying so when it was; a limit
    /// that could not be read (negative) changes nothing.
    static func clamp(_ maxConnections: Int, openFilesLimit: Int) -> (maxConnections: Int, warning: String?) {
        guard openFilesLimit > 0 else { return (maxConnections, nil) }
        let ceiling = ceiling(openFilesLimit: openFilesLimit)
        guard maxConnections > ceiling else { return (maxConnections, nil) }
        return (ceiling, "--max-connections \(maxConnections) lowered to \(ceiling): the open-files limit is \(openFilesLimit) "
            + "(ulimit -n) and \(reserve(openFilesLimit: openFilesLimit)) descriptors stay for the service itself; "
            + "raise the limit to allow more connections")
    }
}
