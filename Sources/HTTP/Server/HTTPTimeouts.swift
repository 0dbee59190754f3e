// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Connection timeouts.
public struct HTTPTimeouts: Sendable {
    /// From the first byte of a request to the end of its headers; on expiry
    /// 408 then close (a connection that never sent a byte is just closed).
    public var header: Duration = .seconds(10)
    /// A keep-alive connection with no request in progress is closed after this.
    public var idle: Duration = .seconds(60)
    /// Pending output making no progress for this long closes the connection.
    public var write: Duration = .seconds(30)
    /// From the end of the headers to the end of the body; on expiry 408 then close.
    public var body: Duration = .seconds(30)

    /// The defaults above.
    public init() {}
}
