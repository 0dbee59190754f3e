// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Why the bytes from a server are not RESP2 the parser will accept. After one,
/// the connection's byte stream cannot be resynchronised and must be closed.
public enum RESPParseError: Error, Sendable, Equatable, CustomStringConvertible {
    case unknownType(UInt8)
    case badNumber(String)
    case lineTooLong(limit: Int)
    case bulkTooLarge(Int, limit: Int)
    case arrayTooLarge(Int, limit: Int)
    case nestedTooDeep(limit: Int)
    case missingCRLF
    case bareLineFeed

    public var description: String {
        switch self {
        case .unknownType(let byte): "RESP protocol error: unknown type byte 0x\(String(byte, radix: 16))"
        case .badNumber(let text): "RESP protocol error: '\(text.prefix(32))' is not a valid length or integer"
        case .lineTooLong(let limit): "RESP protocol error: line longer than \(limit) bytes"
        case .bulkTooLarge(let size, let limit): "RESP protocol error: bulk string of \(size) bytes exceeds \(limit)"
        case .arrayTooLarge(let count, let limit): "RESP protocol error: array of \(count) elements exceeds \(limit)"
        case .nestedTooDeep(let limit): "RESP protocol error: arrays nested deeper than \(limit)"
        case .missingCRLF: "RESP protocol error: bulk string not followed by CRLF"
        case .bareLineFeed: "RESP protocol error: line feed without carriage return"
        }
    }
}
