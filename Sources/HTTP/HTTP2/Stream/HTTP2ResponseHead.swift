// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// A response's header block checked as RFC 9113 §8.3.2 and §8.2 require: `:status` alone among the
/// pseudo-headers and first, lowercase names, no connection-specific field, one content-length.
/// The same walk reads what the client's answer needs, as the HTTP/1.1 response parser does in its
/// own: the content coding and the rate-limit fields.
struct HTTP2ResponseHead: Sendable {
    let status: Int
    /// The regular fields, as received, in the list the client's answer carries.
    let fields: HTTPHeaders
    let contentLength: Int?
    /// The first content-encoding field says gzip (any case): the client inflates the body.
    let gzipCoded: Bool
    /// The `x-ratelimit-*` fields, noted by `RateLimitReading` as the HTTP/1.1 parser notes them.
    let rateLimit: RateLimitFields

    /// 1xx: an interim answer (103 Early Hints, 100 Continue); the final one follows.
    var isInterim: Bool { status < 200 }

    /// - Parameter checked: as for `HTTP2RequestHead.init(validating:checked:)`: the decoder's
    ///   `checkedFields`, whose fields are not checked again; 0 (the slow twin) checks every field.
    ///
    /// The block's array becomes the answer's list (`HTTPHeaders(adopting:)`, its `:status` taken
    /// out): no second array, nor each field copied into it and the block's destroyed through the
    /// tuple's generic witnesses (about 1,000 instructions an answer; the figure: Benchmarks/README.md).
    /// Given the decoder's last reference (`consume`), it is changed in place.
    init(validating block: consuming [(name: String, value: String)], checked: UInt64 = 0) throws(HTTP2MalformedMessage) {
        var status: Int?
        var contentLength: Int?
        var contentEncoding: String?
        var rateLimit = RateLimitReading()
        var regularSeen = false
        for (index, (name, value)) in block.enumerated() {
            if HTTP2FieldRules.withBytes(of: name, { $0.first == UInt8(ascii: ":") }) {
                guard !regularSeen else { throw .init("pseudo-header \(name) after a regular field") }
                guard name == ":status" else { throw .init("pseudo-header \(name) is not a response's") }
                guard status == nil else { throw .init(":status twice") }
                guard value.utf8.count == 3, let code = Self.integer(value), (100...999).contains(code) else { throw .init(":status \(value) is not three digits") }
                status = code
                continue
            }
            if !HTTP2FieldRules.isChecked(index, in: checked) {
                try HTTP2RequestHead.checkName(name)
                try HTTP2RequestHead.checkValue(value, of: name)
            }
            if HTTP2RequestHead.isConnectionSpecific(name) { throw .init("connection-specific field \(name)") }
            // Names are lowercase here (checkName): one comparison each, by length first.
            switch name.utf8.count {
            case 14 where name == "content-length":
                guard let length = Self.integer(value), length >= 0, contentLength == nil || contentLength == length else {
                    throw .init("content-length \(value) is not one non-negative number")
                }
                contentLength = length
            case 16 where contentEncoding == nil && name == "content-encoding":
                contentEncoding = value
            case 17, 21:
                HTTP2FieldRules.withBytes(of: name) { name in
                    guard let kind = RateLimitReading.field(named: UnsafeRawBufferPointer(name)) else { return }
                    HTTP2FieldRules.withBytes(of: value) { rateLimit.note(kind, value: UnsafeRawBufferPointer($0)) }
                }
            default:
                break
            }
            regularSeen = true
        }
        guard let status else { throw .init(":status missing") }
        // 101 is HTTP/1.1's upgrade, which HTTP/2 has none of (§8.6).
        guard status != 101 else { throw .init("101 Switching Protocols over HTTP/2") }
        self.status = status
        // `:status` came first (no pseudo-header after a regular field, none but one `:status`).
        block.removeFirst()
        fields = HTTPHeaders(adopting: consume block)
        self.contentLength = contentLength
        gzipCoded = contentEncoding.map { HTTPHeaders.sameName($0, "gzip") } ?? false
        self.rateLimit = rateLimit.fields
    }

    /// `Int(value)`: read from the bytes when they are 1 to 18 decimal digits (a status, a length),
    /// as `Int(_:)` reads them; anything else goes to `Int(_:)`, the slow twin (HTTP2ResponseHeadTests
    /// compares the two). Generic over `StringProtocol`, `Int(_:)` cost about 250 instructions a field.
    static func integer(_ value: String) -> Int? {
        let digits = HTTP2FieldRules.withBytes(of: value) { bytes -> Int? in
            guard !bytes.isEmpty, bytes.count <= 18 else { return nil }
            var number = 0
            for byte in bytes {
                let digit = byte &- UInt8(ascii: "0")
                guard digit <= 9 else { return nil }
                number = number &* 10 &+ Int(digit)
            }
            return number
        }
        return digits ?? Int(value)
    }
}
