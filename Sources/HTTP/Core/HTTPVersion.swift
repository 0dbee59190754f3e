// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// The protocol version of a request (`HTTP/1.0`, `HTTP/1.1` or `HTTP/2.0`).
// The attribute only keeps the type in the documentation: the symbol graph leaves out any name
// that starts with the module's name and `Version` (meant for C headers' `FooVersionNumber`).
@_documentation(visibility: public)
public struct HTTPVersion: Sendable, Hashable, CustomStringConvertible {
    /// The major version: 1 or 2.
    public let major: Int
    /// The minor version: 0 or 1 for HTTP/1, 0 for HTTP/2.
    public let minor: Int

    /// The version with these numbers.
    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    /// A request that arrived as HTTP/1.0 (its connection closes after the response unless it asks otherwise).
    public static let http1_0 = HTTPVersion(major: 1, minor: 0)
    /// A request that arrived as HTTP/1.1.
    public static let http1_1 = HTTPVersion(major: 1, minor: 1)
    /// A request that arrived on an HTTP/2 stream.
    public static let http2 = HTTPVersion(major: 2, minor: 0)

    /// The version as in a request line: `HTTP/1.1`.
    public var description: String { "HTTP/\(major).\(minor)" }
}
