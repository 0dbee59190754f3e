// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// What `HTTPResponseParser` notes of a head's fields as it walks them: where the first
/// `Content-Length` and `Content-Encoding` values lie, whether there is a `Transfer-Encoding`
/// field, the `Connection` options and the `x-ratelimit-*` fields. Kept apart from the parser
/// until the head is whole: the one-pass walk may give the head up midway to its slow twin.
/// Most answers have no `Transfer-Encoding` or `Connection` field, and looking for their tokens
/// in every field cost three more scans of the head.
struct HeadFieldNotes {
    var contentLength: Range<Int>?
    var contentEncoding: Range<Int>?
    var hasTransferEncoding = false
    var connectionOptions = ConnectionOptions()
    var rateLimit = RateLimitReading()

    /// One field, named `name`, its value at `value` of `lines`.
    /// The names are compared a word at a time (`HTTPSyntax.sameWords`).
    @inline(__always)
    mutating func note(_ name: UnsafeRawBufferPointer, value: Range<Int>, in lines: UnsafeRawBufferPointer) {
        switch name.count {
        case 10 where HTTPSyntax.sameWords(name, "connection"):
            connectionOptions.add(UnsafeRawBufferPointer(rebasing: lines[value]))
        case 14 where contentLength == nil && HTTPSyntax.sameWords(name, "content-length"): contentLength = value
        case 16 where contentEncoding == nil && HTTPSyntax.sameWords(name, "content-encoding"): contentEncoding = value
        case 17 where HTTPSyntax.sameWords(name, "transfer-encoding"): hasTransferEncoding = true
        case 17, 21:
            if let kind = RateLimitReading.field(named: name, same: HTTPSyntax.sameWords) {
                rateLimit.note(kind, value: UnsafeRawBufferPointer(rebasing: lines[value]))
            }
        default: break
        }
    }
}
