// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Writes RESP2: commands as arrays of bulk strings (how every client talks to
/// Redis), and any `RESPValue` (for tests and the fuzzer's round trip).
public enum RESPEncoder {
    /// `*<n>\r\n` then `$<len>\r\n<bytes>\r\n` per argument.
    public static func command(_ arguments: [String], into buffer: inout [UInt8]) {
        appendHeader(UInt8(ascii: "*"), arguments.count, into: &buffer)
        for argument in arguments {
            appendHeader(UInt8(ascii: "$"), argument.utf8.count, into: &buffer)
            buffer.append(contentsOf: argument.utf8)
            buffer.append(contentsOf: crlf)
        }
    }

    public static func command(_ arguments: [String]) -> [UInt8] {
        var buffer: [UInt8] = []
        command(arguments, into: &buffer)
        return buffer
    }

    public static func encode(_ value: RESPValue, into buffer: inout [UInt8]) {
        switch value {
        case .simpleString(let text):
            buffer.append(UInt8(ascii: "+"))
            buffer.append(contentsOf: text.utf8)
            buffer.append(contentsOf: crlf)
        case .error(let text):
            buffer.append(UInt8(ascii: "-"))
            buffer.append(contentsOf: text.utf8)
            buffer.append(contentsOf: crlf)
        case .integer(let number):
            appendHeader(UInt8(ascii: ":"), number, into: &buffer)
        case .bulkString(let bytes):
            appendHeader(UInt8(ascii: "$"), bytes.count, into: &buffer)
            buffer.append(contentsOf: bytes)
            buffer.append(contentsOf: crlf)
        case .array(let values):
            appendHeader(UInt8(ascii: "*"), values.count, into: &buffer)
            for value in values { encode(value, into: &buffer) }
        case .null:
            buffer.append(contentsOf: "$-1\r\n".utf8)
        }
    }

    public static func encode(_ value: RESPValue) -> [UInt8] {
        var buffer: [UInt8] = []
        encode(value, into: &buffer)
        return buffer
    }

    private static let crlf: [UInt8] = [13, 10]

    private static func appendHeader(_ type: UInt8, _ number: Int, into buffer: inout [UInt8]) {
        buffer.append(type)
        buffer.append(contentsOf: String(number).utf8)
        buffer.append(contentsOf: crlf)
    }
}
