// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Bounds on what the RESP parser accepts from a server, so a confused or hostile
/// peer cannot make the client allocate without limit. Redis' own default
/// `proto-max-bulk-len` is 512 MiB; this client stores events and cached
/// upstream responses, far smaller.
public struct RESPLimits: Sendable, Equatable {
    /// Longest simple string, error or number line, CRLF excluded.
    public var maxLineBytes = 64 * 1024
    /// Largest bulk string.
    public var maxBulkBytes = 16 * 1024 * 1024
    /// Most elements in one array.
    public var maxArrayCount = 1_000_000
    /// Deepest nesting of arrays (XREAD replies nest 4 deep).
    public var maxDepth = 16

    public init() {}
}
