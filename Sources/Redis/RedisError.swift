// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Why a Redis command did not produce a reply value.
public enum RedisError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not connected right now (connecting, or waiting to reconnect after `reason`);
    /// the command was not sent. Commands never wait for a connection.
    case notConnected(reason: String)
    /// Redis answered with an error reply, e.g. `WRONGPASS …` or `NOSCRIPT …`.
    case server(String)
    /// No reply within the command timeout; the connection was closed, since later
    /// replies could no longer be matched to their commands.
    case timedOut(after: Duration)
    /// The connection closed before the reply arrived.
    case connectionLost(String)
    /// `close()` was called.
    case closed

    public var description: String {
        switch self {
        case .notConnected(let reason): "Redis not connected (\(reason))"
        case .server(let message): "Redis error reply: \(message)"
        case .timedOut(let after): "Redis command timed out after \(after)"
        case .connectionLost(let reason): "Redis connection lost: \(reason)"
        case .closed: "Redis connection closed"
        }
    }
}
