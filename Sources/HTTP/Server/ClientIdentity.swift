// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore

/// Who a connection belongs to, for `HTTPLimits.maxConnectionsPerClient`: one function from
/// the peer's socket address to a key, so a deployment that knows better (a trusted proxy's
/// view of the client) can swap it without touching the counting.
public struct ClientIdentity: Sendable {
    public let key: @Sendable (SocketAddress) -> String

    public init(key: @escaping @Sendable (SocketAddress) -> String) {
        self.key = key
    }

    /// The peer's IP address without its port: each of a client's connections comes from a
    /// port of its own, and a TCP server knows no more about who is behind an address.
    public static let peerAddress = ClientIdentity { $0.host }
}
