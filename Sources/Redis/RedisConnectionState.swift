// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Where a `RedisConnection` is in its life, for logs, `/ready` and `/metrics`.
public enum RedisConnectionState: Sendable, Equatable, CustomStringConvertible {
    /// Connecting, or authenticating and selecting the database.
    case connecting
    /// Handshake done (AUTH, SELECT, PING answered): commands are sent.
    case connected
    /// Lost or refused (`reason` says why, e.g. a WRONGPASS reply); a reconnect is scheduled.
    case disconnected(reason: String)
    /// `close()` was called; no more reconnects.
    case closed

    /// Metric-friendly name: connecting, connected, disconnected, closed.
    public var name: String {
        switch self {
        case .connecting: "connecting"
        case .connected: "connected"
        case .disconnected: "disconnected"
        case .closed: "closed"
        }
    }

    public var description: String {
        if case .disconnected(let reason) = self { return "disconnected (\(reason))" }
        return name
    }
}
