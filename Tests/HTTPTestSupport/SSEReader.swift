// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Parses Server-Sent Events messages out of a de-chunked event stream as its bytes
/// arrive, in any split: the one SSE parser of the test clients.
public struct SSEReader {
    public struct Message: Equatable, Sendable {
        public var id: String?
        public var event: String?
        /// The `data:` lines joined with newlines; nil when the message had none.
        public var data: String?
        public var comments: [String] = []

        public init(id: String? = nil, event: String? = nil, data: String? = nil, comments: [String] = []) {
            self.id = id
            self.event = event
            self.data = data
            self.comments = comments
        }

        /// True for a message with an event or data, false for a comment (heartbeat) or a bare `retry:`.
        public var isEvent: Bool { event != nil || data != nil }
    }

    private var pending: [UInt8] = []

    public init() {}

    /// Events completed by `bytes` (comments, heartbeats and bare `retry:` messages dropped).
    public mutating func feed(_ bytes: [UInt8]) -> [Message] {
        messages(completedBy: bytes).filter(\.isEvent)
    }

    /// Every message completed by `bytes`, comment-only ones included.
    public mutating func messages(completedBy bytes: [UInt8]) -> [Message] {
        pending += bytes
        var messages: [Message] = []
        while let end = Self.blockEnd(in: pending) {
            messages.append(Self.parse(String(decoding: pending[..<end], as: UTF8.self)))
            pending.removeFirst(end + 2)
        }
        return messages
    }

    private static func blockEnd(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 2 else { return nil }
        for index in 0..<(bytes.count - 1) where bytes[index] == 10 && bytes[index + 1] == 10 { return index }
        return nil
    }

    private static func parse(_ block: String) -> Message {
        var message = Message()
        for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(":") {
                message.comments.append(String(line.dropFirst().drop { $0 == " " }))
                continue
            }
            let parts = line.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            var value = parts.count > 1 ? String(parts[1]) : ""
            if value.hasPrefix(" ") { value.removeFirst() }
            switch parts[0] {
            case "id": message.id = value
            case "event": message.event = value
            case "data": message.data = message.data.map { $0 + "\n" + value } ?? value
            default: break
            }
        }
        return message
    }
}
