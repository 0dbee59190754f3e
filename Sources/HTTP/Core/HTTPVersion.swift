// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// The protocol version of a request (`HTTP/1.0`, `HTTP/1.1` or `HTTP/2.0`).
public struct HTTPVersion: Sendable, Hashable, CustomStringConvertible {
    public let major: Int
    public let minor: Int

    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    public static let http1_0 = HTTPVersion(major: 1, minor: 0)
    public static let http1_1 = HTTPVersion(major: 1, minor: 1)
    /// A request that arrived on an HTTP/2 stream.
    public static let http2 = HTTPVersion(major: 2, minor: 0)

    public var description: String { "HTTP/\(major).\(minor)" }
}
