// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore

/// A request target split once into the percent-decoded path and the raw query text (RFC 9112
/// §3.2), the one value every `Request` initialiser takes its path and query from: an HTTP/1.1
/// request line's target and an HTTP/2 `:path` (RFC 9113 §8.3.1) go through the same split.
///
/// - origin-form `/path?query`: the path up to the first `?`, decoded; the query after it.
/// - absolute-form `http://host/path?query`: the same for the part from the path on (`/` when
///   the target has no path).
/// - asterisk-form `*` and authority-form `host:port`: the target is its own path.
package struct ParsedTarget: Sendable, Equatable {
    /// The target exactly as sent, e.g. `/books?since=5`.
    package let text: String
    /// The percent-decoded path, e.g. `/books`.
    package let path: String
    /// The raw query text after the first `?`, e.g. `since=5`; empty without one.
    package var query: Substring { queryStart.map { text[$0...] } ?? "" }
    /// Where the query starts in `text`, after its `?`; nil without one. An index, not the
    /// `Substring`: kept and moved as a plain value until the query is asked for.
    private let queryStart: String.Index?

    /// Splits any target. The common targets (`/path` and `/path?query` with no `%` before the
    /// `?`) take the fast split; everything else `splitInGeneral`, its authoritative twin.
    package init(_ target: String) {
        let utf8 = target.utf8
        if utf8.first == UInt8(ascii: "/") {
            let stop = utf8.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "%") }
            guard let stop else {
                self.init(plainPath: target, queryMark: nil)
                return
            }
            if utf8[stop] == UInt8(ascii: "?") {
                self.init(plainPath: target, queryMark: stop)
                return
            }
        }
        self = Self.splitInGeneral(target)
    }

    /// A target the HTTP/1.1 parser has checked byte by byte as it read the request line: it
    /// starts with `/`, has no `%` before its first `?`, and that `?` is `queryOffset` bytes in
    /// (nil: none). Taken without a second scan.
    @inline(__always)
    init(checkedPlainPath target: String, queryOffset: Int?) {
        let utf8 = target.utf8
        self.init(plainPath: target, queryMark: queryOffset.map { utf8.index(utf8.startIndex, offsetBy: $0) })
    }

    /// The fast split, written once: a target `/…` with no `%` before its first `?` (at
    /// `queryMark`) is its own decoded path up to that `?`, with no scheme to strip and nothing
    /// to decode.
    @inline(__always)
    private init(plainPath target: String, queryMark: String.Index?) {
        text = target
        guard let queryMark else {
            path = target
            queryStart = nil
            return
        }
        path = String(target[..<queryMark])
        queryStart = target.utf8.index(after: queryMark)
    }

    /// The parts as they are: `queryStart` an index of `text`.
    private init(text: String, path: String, queryStart: String.Index?) {
        self.text = text
        self.path = path
        self.queryStart = queryStart
    }

    /// The empty target, for the parser's empty head (nothing allocated).
    static var empty: ParsedTarget { ParsedTarget(text: "", path: "", queryStart: nil) }

    /// The general rule for any target, with no fast path: cut at the first `?`, keep only the
    /// path of an absolute-form target, percent-decode the path (`+` stays `+` in a path).
    static func splitInGeneral(_ target: String) -> ParsedTarget {
        let utf8 = target.utf8
        var pathPart = Substring(target)
        var queryStart: String.Index?
        if let mark = utf8.firstIndex(of: UInt8(ascii: "?")) {
            pathPart = target[..<mark]
            queryStart = utf8.index(after: mark)
        }
        if pathPart.hasPrefix("http://") || pathPart.hasPrefix("https://") {
            let afterScheme = pathPart[pathPart.index(pathPart.firstIndex(of: ":")!, offsetBy: 3)...]
            pathPart = afterScheme.firstIndex(of: "/").map { afterScheme[$0...] } ?? "/"
        }
        return ParsedTarget(text: target, path: PercentEncoding.decode(pathPart, plusAsSpace: false), queryStart: queryStart)
    }
}
