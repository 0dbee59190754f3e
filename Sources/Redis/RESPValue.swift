// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// One RESP2 value, as Redis replies with it.
public enum RESPValue: Sendable, Equatable, Hashable {
    case simpleString(String)
    /// An error reply, e.g. `WRONGPASS invalid username-password pair`.
    case error(String)
    case integer(Int)
    case bulkString([UInt8])
    case array([RESPValue])
    /// RESP2's null bulk string (`$-1`) and null array (`*-1`), e.g. XREAD BLOCK timing out.
    case null

    /// The text of a simple or bulk string.
    public var string: String? {
        switch self {
        case .simpleString(let text): text
        case .bulkString(let bytes): String(decoding: bytes, as: UTF8.self)
        default: nil
        }
    }

    /// An integer reply, or a string reply holding a decimal integer.
    public var int: Int? {
        switch self {
        case .integer(let value): value
        case .simpleString, .bulkString: string.flatMap { Int($0) }
        default: nil
        }
    }

    public var array: [RESPValue]? {
        if case .array(let values) = self { return values }
        return nil
    }
}
