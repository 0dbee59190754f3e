// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// The `close` and `keep-alive` options of a request's `Connection` fields (RFC 9110 §7.6.1):
/// a comma-separated list, blanks around each element, names compared ASCII
/// case-insensitively. The parser notes them from the field values' bytes as it meets them;
/// `init(of:)` reads them from a header list by the same rule.
struct ConnectionOptions: Sendable, Equatable {
    var close = false
    var keepAlive = false

    init() {}

    /// The options of every `Connection` field in `headers`.
    init(of headers: HTTPHeaders) {
        for var value in headers.values(for: "Connection") {
            value.withUTF8 { add(UnsafeRawBufferPointer($0)) }
        }
    }

    /// Notes the options listed in one `Connection` field value.
    mutating func add(_ value: UnsafeRawBufferPointer) {
        var start = 0
        while start <= value.count {
            var end = start
            while end < value.count && value[end] != UInt8(ascii: ",") { end += 1 }
            var first = start, last = end
            while first < last && (value[first] == 32 || value[first] == 9) { first += 1 }
            while last > first && (value[last - 1] == 32 || value[last - 1] == 9) { last -= 1 }
            let element = UnsafeRawBufferPointer(rebasing: value[first..<last])
            if HTTPSyntax.sameToken(element, "close") { close = true }
            if HTTPSyntax.sameToken(element, "keep-alive") { keepAlive = true }
            start = end + 1
        }
    }

    /// The one keep-alive rule for a request (RFC 9112 §9.3): an HTTP/1.0 connection persists
    /// only when the request asks with `keep-alive`; a later version's unless it says `close`.
    func persists(in version: HTTPVersion) -> Bool {
        if version.major == 1 && version.minor == 0 { return keepAlive }
        return !close
    }
}
