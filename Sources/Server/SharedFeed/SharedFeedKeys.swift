// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// The Redis keys of the shared `/events` feed. None has a TTL, so with
/// `maxmemory-policy volatile-lru` (or `noeviction`) Redis never evicts them;
/// only the upstream cache's keys, which all expire, are eviction candidates.
struct SharedFeedKeys: Sendable {
    /// INCR counter: the last SSE id handed out.
    let sequence: String
    /// The stream; entry `n-0` is SSE id `n`, fields `e` (event name), `p` (pipeline) and `d` (data).
    let stream: String
    /// A random token set once per Redis dataset: a different value means Redis lost its data.
    let epoch: String
    /// Which replica publishes `--events-clock` ticks (a lease with a TTL).
    let clockLease: String
    /// Hash: each publishing process's token → the number of the last event it appended.
    let published: String

    init(prefix: String = "stream-service:events") {
        sequence = prefix + ":seq"
        stream = prefix + ":stream"
        epoch = prefix + ":epoch"
        clockLease = prefix + ":clock-lease"
        published = prefix + ":published"
    }
}
