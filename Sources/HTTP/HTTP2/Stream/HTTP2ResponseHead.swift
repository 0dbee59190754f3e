// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// A response's header block checked as RFC 9113 §8.3.2 and §8.2 require: `:status` alone among the
/// pseudo-headers and first, lowercase names, no connection-specific field, one content-length.
struct HTTP2ResponseHead {
    let status: Int
    /// The regular fields, as received.
    let fields: [(name: String, value: String)]
    let contentLength: Int?

    /// 1xx: an interim answer (103 Early Hints, 100 Continue); the final one follows.
    var isInterim: Bool { status < 200 }

    init(validating block: [(name: String, value: String)]) throws(HTTP2MalformedMessage) {
        var status: Int?
        var contentLength: Int?
        var fields: [(name: String, value: String)] = []
        fields.reserveCapacity(block.count)
        for (name, value) in block {
            if name.utf8.first == UInt8(ascii: ":") {
                guard fields.isEmpty else { throw .init("pseudo-header \(name) after a regular field") }
                guard name == ":status" else { throw .init("pseudo-header \(name) is not a response's") }
                guard status == nil else { throw .init(":status twice") }
                guard value.utf8.count == 3, let code = Int(value), (100...999).contains(code) else { throw .init(":status \(value) is not three digits") }
                status = code
                continue
            }
            try HTTP2RequestHead.checkName(name)
            try HTTP2RequestHead.checkValue(value, of: name)
            if HTTP2RequestHead.connectionSpecific.contains(name) { throw .init("connection-specific field \(name)") }
            if name == "content-length" {
                guard let length = Int(value), length >= 0, contentLength == nil || contentLength == length else {
                    throw .init("content-length \(value) is not one non-negative number")
                }
                contentLength = length
            }
            fields.append((name, value))
        }
        guard let status else { throw .init(":status missing") }
        // 101 is HTTP/1.1's upgrade, which HTTP/2 has none of (§8.6).
        guard status != 101 else { throw .init("101 Switching Protocols over HTTP/2") }
        self.status = status
        self.fields = fields
        self.contentLength = contentLength
    }
}
