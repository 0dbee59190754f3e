// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// A request method token, compared exactly (methods are case-sensitive).
public struct HTTPMethod: RawRepresentable, Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The method token as it appears in the request line (`GET`).
    public let rawValue: String

    /// The method with this token, taken as written.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The method with this token, taken as written.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// A method written as a string literal: `"PROPFIND"`.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// The method token.
    public var description: String { rawValue }

    /// GET: read a resource.
    public static let get = HTTPMethod("GET")
    /// HEAD: the answer GET would give, without its body (the server derives it from the GET route).
    public static let head = HTTPMethod("HEAD")
    /// POST: process the request's body.
    public static let post = HTTPMethod("POST")
    /// PUT: replace a resource with the request's body.
    public static let put = HTTPMethod("PUT")
    /// PATCH: change part of a resource.
    public static let patch = HTTPMethod("PATCH")
    /// DELETE: remove a resource.
    public static let delete = HTTPMethod("DELETE")
    /// OPTIONS: the methods a resource allows.
    public static let options = HTTPMethod("OPTIONS")
}
