// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore

/// The key a connection counts under for `HTTPLimits.maxConnectionsPerClient` (who it belongs
/// to): one function from the peer's socket address to a key, so a deployment that knows better
/// (each connection of a trusted proxy on its own) can swap it without touching the counting.
/// Per-request client addresses behind proxies are the server application's business, not this.
public struct PerClientConnectionKey: Sendable {
    /// Maps a connection's peer address to the key its connections are counted under.
    public let key: @Sendable (SocketAddress) -> String

    /// A policy that counts connections under the key `key` returns.
    public init(key: @escaping @Sendable (SocketAddress) -> String) {
        self.key = key
    }

    /// The peer's IP address without its port: each of a client's connections comes from a
    /// port of its own, and a TCP server knows no more about who is behind an address.
    public static let peerAddress = PerClientConnectionKey { $0.host }
}
