// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Writes `ServerSentEvent`s in `text/event-stream` wire format.
///
/// Line breaks inside `data` and `comment` (`\r\n`, `\r` or `\n`) split the value
/// into several field lines, so a client reassembles it with `\n`. `id` and `event`
/// are single-line fields: their CR, LF and NUL characters are dropped, so a value
/// can never end the line early and inject fields of its own.
public enum SSEEncoder {
    /// The message's bytes: its fields, one per line, then the blank line that ends it.
    public static func encode(_ message: ServerSentEvent) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity((message.data?.utf8.count ?? 0) + 32)
        if let comment = message.comment {
            for line in lines(of: comment) { append(field: "", value: line, to: &out) }
        }
        if let id = message.id { append(field: "id", value: singleLine(id), to: &out) }
        if let event = message.event { append(field: "event", value: singleLine(event), to: &out) }
        if let retry = message.retry { append(field: "retry", value: Substring(String(max(0, retry))), to: &out) }
        if let data = message.data {
            for line in lines(of: data) { append(field: "data", value: line, to: &out) }
        }
        out.append(newline)
        return out
    }

    /// `field: value\n`; a comment has the empty field name, giving `: value`.
    private static func append(field: String, value: Substring, to out: inout [UInt8]) {
        out.append(contentsOf: field.utf8)
        out.append(colon)
        out.append(space)
        out.append(contentsOf: value.utf8)
        out.append(newline)
    }

    /// The value split at every `\r\n`, `\r` and `\n` (the three line ends the spec's parser accepts).
    static func lines(of text: String) -> [Substring] {
        var result: [Substring] = []
        var start = text.startIndex
        var index = text.startIndex
        // Swift treats "\r\n" as one Character, so one check per Character covers all three.
        while index < text.endIndex {
            let character = text[index]
            if character == "\n" || character == "\r" || character == "\r\n" {
                result.append(text[start..<index])
                start = text.index(after: index)
            }
            index = text.index(after: index)
        }
        result.append(text[start...])
        return result
    }

    private static func singleLine(_ text: String) -> Substring {
        guard text.utf8.contains(where: { $0 == carriageReturn || $0 == newline || $0 == 0 }) else { return Substring(text) }
        return Substring(String(String.UnicodeScalarView(text.unicodeScalars.filter { $0 != "\r" && $0 != "\n" && $0 != "\0" })))
    }

    private static let newline = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")
    private static let colon = UInt8(ascii: ":")
    private static let space = UInt8(ascii: " ")
}
