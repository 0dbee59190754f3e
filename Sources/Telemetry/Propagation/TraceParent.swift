// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Strict parsing of W3C Trace Context headers (https://www.w3.org/TR/trace-context/).
/// Whatever does not parse is ignored: the request then starts a new trace, it is never refused.
public enum TraceParent {
    /// `version-traceid-parentid-flags`. Version `00` must be exactly 55 characters; a later version
    /// (`01`–`fe`) is read by its first 55 characters when the next one is `-` (the spec's forward
    /// compatibility); `ff` and anything not lowercase hex are invalid, as are all-zero ids.
    public static func parse(_ header: String) -> SpanContext? {
        let utf8 = Array(header.utf8)
        guard utf8.count >= 55, utf8[2] == dash, utf8[35] == dash, utf8[52] == dash,
            let version = Hex.value(utf8[0..<2]), version != 0xFF
        else { return nil }
        if version == 0 {
            guard utf8.count == 55 else { return nil }
        } else if utf8.count > 55 {
            guard utf8[55] == dash else { return nil }
        }
        guard let traceID = TraceID(hex: String(decoding: utf8[3..<35], as: UTF8.self)),
            let spanID = SpanID(hex: String(decoding: utf8[36..<52], as: UTF8.self)),
            let flags = Hex.value(utf8[53..<55])
        else { return nil }
        return SpanContext(traceID: traceID, spanID: spanID, isSampled: flags & 1 == 1, isRemote: true)
    }

    private static let dash = UInt8(ascii: "-")
}

/// The `tracestate` list, checked for the spec's shape (at most 32 members, `key=value`, keys of
/// lowercase letters, digits and `_-*/` with one optional `@`, values of printable ASCII without
/// `,` and `=`). A list that breaks the rules is dropped whole, never partly passed on.
public enum TraceState {
    public static let maxMembers = 32

    /// The list with empty members and surrounding spaces removed, or nil when it is invalid or empty.
    public static func validate(_ header: String) -> String? {
        var members: [Substring] = []
        for raw in header.split(separator: ",", omittingEmptySubsequences: false) {
            let member = raw.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed()
            let text = Substring(String(member))
            if text.isEmpty { continue }
            guard isValidMember(text) else { return nil }
            members.append(text)
        }
        guard !members.isEmpty, members.count <= maxMembers else { return nil }
        let keys = members.map { $0.prefix { $0 != "=" } }
        guard Set(keys).count == keys.count else { return nil }
        return members.joined(separator: ",")
    }

    private static func isValidMember(_ member: Substring) -> Bool {
        guard let equals = member.firstIndex(of: "=") else { return false }
        let key = member[..<equals], value = member[member.index(after: equals)...]
        return isValidKey(key) && isValidValue(value)
    }

    private static func isValidKey(_ key: Substring) -> Bool {
        let parts = key.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count <= 2, let first = key.utf8.first, isLowerAlnum(first) || parts.count == 2 else { return false }
        if parts.count == 2 {
            guard (1...241).contains(parts[0].utf8.count), (1...14).contains(parts[1].utf8.count),
                let system = parts[1].utf8.first, system >= UInt8(ascii: "a") && system <= UInt8(ascii: "z")
            else { return false }
        } else {
            guard key.utf8.count <= 256, first >= UInt8(ascii: "a") && first <= UInt8(ascii: "z") || isDigit(first) else { return false }
        }
        return key.utf8.allSatisfy { isLowerAlnum($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "@") }
    }

    private static func isValidValue(_ value: Substring) -> Bool {
        guard (1...256).contains(value.utf8.count), value.utf8.last != UInt8(ascii: " ") else { return false }
        return value.utf8.allSatisfy { $0 >= 0x20 && $0 <= 0x7E && $0 != UInt8(ascii: ",") && $0 != UInt8(ascii: "=") }
    }

    private static func isLowerAlnum(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || isDigit(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
