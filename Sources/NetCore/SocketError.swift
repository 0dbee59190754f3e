// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed socket call: the operation and its `errno`.
public struct SocketError: Error, Sendable, CustomStringConvertible, Equatable {
    public let operation: String
    public let code: Int32

    public init(_ operation: String, code: Int32 = errno) {
        self.operation = operation
        self.code = code
    }

    public var description: String {
        "\(operation) failed: \(String(cString: strerror(code))) (errno \(code))"
    }

    public static let timedOut = SocketError("connect", code: ETIMEDOUT)
}
