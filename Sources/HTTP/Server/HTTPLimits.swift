// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Streams

/// Size limits the server enforces on each request; over a limit the client
/// gets the matching status (414, 431, 413) and the connection is closed.
public struct HTTPLimits: Sendable {
    /// Request line (`GET /target HTTP/1.1`) → 414.
    public var maxRequestLineBytes = 8 * 1024
    /// All header fields together → 431.
    public var maxHeaderBytes = 32 * 1024
    /// Number of header fields → 431.
    public var maxHeaderFields = 100
    /// Request body, declared or chunked → 413.
    public var maxBodyBytes = 1 << 20
    /// Open connections; beyond it new connections get a 503 and are closed.
    public var maxConnections = 16_384
    /// Open connections of one client (`HTTPServerConfiguration.perClientConnectionKey`); beyond it that
    /// client's new connections get a 503 and are closed while others still get in. nil = no cap:
    /// clients behind one NAT or proxy share an address, so only the operator can pick a number.
    public var maxConnectionsPerClient: Int?
    /// The slow-client policy, as the stream-level policy: a streamed response may
    /// have this many bytes queued for a slow reader, then the connection is dropped
    /// (`BufferLimit.fail`, measured in bytes; `droppedCount` counts dropped clients).
    public var streamBuffer = BufferLimit.fail(1 << 20)
    /// `streamBuffer`'s capacity in bytes.
    public var maxStreamBufferBytes: Int {
        get { streamBuffer.capacity }
        set { streamBuffer = .fail(newValue) }
    }
    /// Parsed requests queued behind the one being answered before the server
    /// stops reading from a pipelining client.
    public var maxPipelinedRequests = 32

    /// The defaults above.
    public init() {}
}
