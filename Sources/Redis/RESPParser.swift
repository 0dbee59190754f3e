// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// An incremental RESP2 parser: feed it bytes as they arrive, in pieces of any
/// size (one byte at a time included), and it emits each complete top-level
/// reply once, in order. The result never depends on how the bytes were split.
///
/// Every size is bounded by `RESPLimits`; a violation or malformed input emits
/// one `.failure`, after which the parser ignores further input (the stream
/// cannot be resynchronised, so the connection must close).
public struct RESPParser: Sendable {
    public enum Output: Sendable, Equatable {
        case value(RESPValue)
        case failure(RESPParseError)
    }

    private struct PartialArray: Sendable {
        var remaining: Int
        var elements: [RESPValue]
    }

    public let limits: RESPLimits
    private var buffer: [UInt8] = []
    /// Start of the unconsumed bytes in `buffer`.
    private var position = 0
    /// Where the search for the current line's LF resumes, so a line arriving
    /// byte by byte is scanned once, not once per byte.
    private var scanned = 0
    /// Length of a bulk string whose body has not fully arrived.
    private var pendingBulk: Int?
    private var stack: [PartialArray] = []
    public private(set) var hasFailed = false

    public init(limits: RESPLimits = RESPLimits()) {
        self.limits = limits
    }

    /// True when no reply is partially received.
    public var isIdle: Bool { position == buffer.count && stack.isEmpty && pendingBulk == nil }

    public mutating func feed(_ bytes: UnsafeRawBufferPointer, _ emit: (Output) -> Void) {
        guard !hasFailed else { return }
        buffer.append(contentsOf: bytes)
        while !hasFailed, let value = nextValue(emit) {
            complete(value, emit)
        }
        compact()
    }

    public mutating func feed(_ bytes: [UInt8], _ emit: (Output) -> Void) {
        bytes.withUnsafeBytes { feed($0, emit) }
    }

    /// Parses one scalar, or the header of an array, from the buffer; nil when more bytes are needed.
    private mutating func nextValue(_ emit: (Output) -> Void) -> RESPValue? {
        while true {
            if let length = pendingBulk {
                guard buffer.count - position >= length + 2 else { return nil }
                guard buffer[position + length] == 13, buffer[position + length + 1] == 10 else {
                    fail(.missingCRLF, emit); return nil
                }
                let value = RESPValue.bulkString(Array(buffer[position..<position + length]))
                position += length + 2
                scanned = position
                pendingBulk = nil
                return value
            }
            guard position < buffer.count else { return nil }
            let type = buffer[position]
            // Checked before the line is complete, so the outcome does not depend on how bytes arrive.
            guard Self.knownTypes.contains(type) else { fail(.unknownType(type), emit); return nil }
            guard let lineFeed = findLineFeed() else {
                if buffer.count - position > limits.maxLineBytes + 2 { fail(.lineTooLong(limit: limits.maxLineBytes), emit) }
                return nil
            }
            guard lineFeed - position <= limits.maxLineBytes + 2 else { fail(.lineTooLong(limit: limits.maxLineBytes), emit); return nil }
            guard lineFeed - position >= 2, buffer[lineFeed - 1] == 13 else { fail(.bareLineFeed, emit); return nil }
            let line = String(decoding: buffer[(position + 1)..<(lineFeed - 1)], as: UTF8.self)
            position = lineFeed + 1
            scanned = position
            switch type {
            case UInt8(ascii: "+"):
                return .simpleString(line)
            case UInt8(ascii: "-"):
                return .error(line)
            case UInt8(ascii: ":"):
                guard let number = Int(line) else { fail(.badNumber(line), emit); return nil }
                return .integer(number)
            case UInt8(ascii: "$"):
                guard let length = Int(line), length >= -1 else { fail(.badNumber(line), emit); return nil }
                if length == -1 { return .null }
                guard length <= limits.maxBulkBytes else { fail(.bulkTooLarge(length, limit: limits.maxBulkBytes), emit); return nil }
                pendingBulk = length
            default: // "*"
                guard let count = Int(line), count >= -1 else { fail(.badNumber(line), emit); return nil }
                if count == -1 { return .null }
                if count == 0 { return .array([]) }
                guard count <= limits.maxArrayCount else { fail(.arrayTooLarge(count, limit: limits.maxArrayCount), emit); return nil }
                guard stack.count < limits.maxDepth else { fail(.nestedTooDeep(limit: limits.maxDepth), emit); return nil }
                // No reserveCapacity: the count is the peer's claim, the elements are what arrives.
                stack.append(PartialArray(remaining: count, elements: []))
            }
        }
    }

    private static let knownTypes: Set<UInt8> = [UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: ":"), UInt8(ascii: "$"), UInt8(ascii: "*")]

    private mutating func findLineFeed() -> Int? {
        var index = max(scanned, position)
        while index < buffer.count {
            if buffer[index] == 10 { return index }
            index += 1
        }
        scanned = index
        return nil
    }

    /// Adds `value` to the innermost open array, closing arrays that become full; emits a finished top-level value.
    private mutating func complete(_ value: RESPValue, _ emit: (Output) -> Void) {
        var value = value
        while !stack.isEmpty {
            stack[stack.count - 1].elements.append(value)
            stack[stack.count - 1].remaining -= 1
            guard stack[stack.count - 1].remaining == 0 else { return }
            value = .array(stack.removeLast().elements)
        }
        emit(.value(value))
    }

    private mutating func fail(_ error: RESPParseError, _ emit: (Output) -> Void) {
        hasFailed = true
        buffer = []
        position = 0
        scanned = 0
        stack = []
        pendingBulk = nil
        emit(.failure(error))
    }

    /// Drops consumed bytes: all of them when the buffer is used up, else once they are the larger part.
    private mutating func compact() {
        if position == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 64 * 1024)
            scanned = 0
            position = 0
        } else if position > 4096 && position * 2 > buffer.count {
            buffer.removeFirst(position)
            scanned -= position
            position = 0
        }
    }
}
