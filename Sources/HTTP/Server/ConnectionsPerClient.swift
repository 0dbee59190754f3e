// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency

/// Open connections by client key, for `HTTPLimits.maxConnectionsPerClient`; shared by every
/// accepting loop (each listener's loop accepts with `reusePort`). Only keys with a connection
/// open are kept, so the table is bounded by the connection limit.
final class ConnectionsPerClient: Sendable {
    private let counts = Locked<[String: Int]>([:])

    /// Counts a new connection of `client` unless it already has `limit` open.
    func admit(_ client: String, limit: Int) -> Bool {
        counts.withLock { counts in
            let open = counts[client, default: 0]
            guard open < limit else { return false }
            counts[client] = open + 1
            return true
        }
    }

    func release(_ client: String) {
        counts.withLock { counts in
            guard let open = counts[client] else { return }
            counts[client] = open > 1 ? open - 1 : nil
        }
    }
}
