// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore

/// A request to the demo upstream, independent of any transport.
///
/// It keeps the target as sent and reads its parts when asked: 30 of the 31 requests of a
/// `/users` call are avatars (`/u/3?v=4`), whose query the demo never reads, and splitting
/// every target into a path and a dictionary up front is work most requests throw away (the figure: Benchmarks/README.md).
public struct DemoRequest: Sendable, Equatable {
    public let method: String
    /// The origin-form request target as sent (`/users?since=3&per_page=2`).
    public let target: String
    /// The `Host` the client used; absolute URLs in answers (avatar_url, Link) point back to it.
    public let host: String
    /// The `If-None-Match` field: the one request header the demo reads.
    public let ifNoneMatch: String?
    /// The path's length in UTF-8 bytes: up to the `?` before the query, else all of the target.
    let pathBytes: Int
    /// Whether every byte of the target is ASCII, where splitting bytes and splitting characters agree.
    let isASCII: Bool

    public init(method: String = "GET", target: String, host: String = "127.0.0.1", ifNoneMatch: String? = nil) {
        self.method = method
        self.target = target
        self.host = host
        self.ifNoneMatch = ifNoneMatch
        var text = target
        let mark = text.withUTF8(Self.questionMark)
        isASCII = mark != nil
        // Outside ASCII a `?` followed by a combining mark is one character with it, and no separator.
        pathBytes = mark ?? target.utf8.distance(from: target.startIndex, to: target.firstIndex(of: "?") ?? target.endIndex)
    }

    /// The same from a transport's header fields, with `If-None-Match` looked up by any case.
    public init(method: String = "GET", target: String, host: String = "127.0.0.1", headers: [String: String]) {
        let condition = headers.first { $0.key.lowercased() == "if-none-match" }?.value
        self.init(method: method, target: target, host: host, ifNoneMatch: condition)
    }

    /// The target before its query (`/users`), as sent: not percent-decoded.
    var pathText: Substring { Substring(target.utf8.prefix(pathBytes)) }

    public var path: String { String(pathText) }

    /// The query's `name=value` pairs, each percent-decoded strictly; the last of a repeated
    /// name wins, and a name without `=` has the empty value.
    public var query: [String: String] {
        guard pathBytes < target.utf8.count else { return [:] }
        let text = Substring(target.utf8.dropFirst(pathBytes + 1))
        var query: [String: String] = [:]
        for pair in text.pieces(separatedBy: "&", isASCII: isASCII) {
            let keyValue = pair.pieces(separatedBy: "=", isASCII: isASCII, maxSplits: 1, omittingEmptySubsequences: false)
            query[Self.decoded(keyValue[0])] = keyValue.count == 2 ? Self.decoded(keyValue[1]) : ""
        }
        return query
    }

    /// `query[name]`, read straight from the bytes of a query in ASCII without escapes (a users
    /// page's `?since=0&per_page=30`), where making the dictionary was most of the page's work.
    func queryValue(_ name: String) -> String? {
        var text = target
        let start = pathBytes + 1
        guard isASCII, let found = text.withUTF8({ Self.lastValue(of: name, in: $0, from: start) }) else { return query[name] }
        return found
    }

    /// The last value of `name` in the query from `start`: `.some(nil)` for none, nil for a
    /// query with escapes, which only the dictionary decodes.
    private static func lastValue(of name: String, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> String?? {
        guard start <= bytes.count else { return .some(nil) }
        guard !bytes[start...].contains(UInt8(ascii: "%")) else { return nil }
        var value: Range<Int>?
        var pairStart = start
        for index in start...bytes.count where index == bytes.count || bytes[index] == UInt8(ascii: "&") {
            let pair = pairStart..<index
            pairStart = index + 1
            let equals = bytes[pair].firstIndex(of: UInt8(ascii: "=")) ?? pair.upperBound
            if !pair.isEmpty, bytes[pair.lowerBound..<equals].elementsEqual(name.utf8) {
                value = min(equals + 1, pair.upperBound)..<pair.upperBound
            }
        }
        return .some(value.map { String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self) })
    }

    public static func == (lhs: DemoRequest, rhs: DemoRequest) -> Bool {
        lhs.method == rhs.method && lhs.target == rhs.target && lhs.host == rhs.host && lhs.ifNoneMatch == rhs.ifNoneMatch
    }

    /// The offset of the first `?` (the end when there is none) in ASCII text; nil outside ASCII.
    private static func questionMark(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var mark = bytes.count
        for index in bytes.indices.reversed() {
            guard bytes[index] < 0x80 else { return nil }
            if bytes[index] == UInt8(ascii: "?") { mark = index }
        }
        return mark
    }

    /// Percent-decoded strictly; text with a bad escape is kept as it was written.
    private static func decoded(_ text: Substring) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        return PercentEncoding.decodeStrictly(text) ?? String(text)
    }
}
